import type { IncomingMessage } from 'node:http';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { applyHttpLimits, type HttpLimits, httpTimeoutOptions } from './limits.ts';

/** What the console should serve over HTTPS: a PEM chain and its key, the port, and whether plain HTTP redirects. */
export interface TlsWanted {
  cert: string;
  key: string;
  port: number;
  host?: string | undefined;
  /** Plain HTTP answers with a redirect to HTTPS (but the ACME challenge path and the probes). */
  redirect: boolean;
}

/** What the HTTPS listener is doing, reported back to its source (the page shows it). */
export interface TlsListening {
  /** The port it listens on; null when it does not. */
  port: number | null;
  /** Why it does not listen (EACCES on a low port without privileges, EADDRINUSE …). */
  error: string | null;
}

/**
 * The seam through which an area supplies the console's TLS (docs/https.md): the area that owns the
 * certificate provides a `tls` service; the composition root hands it to the HTTPS listener, which
 * asks `wanted()` after the app listens and again on every `onChange`, and reports back.
 */
export interface TlsSource {
  wanted(): TlsWanted | null;
  /** Registers the listener's callback, called after each change of `wanted()`. */
  onChange(listener: () => Promise<void>): void;
  report(state: TlsListening): void;
}

/** Paths plain HTTP keeps answering while it redirects: ACME's HTTP-01 challenge and the probes on the box. */
const keepsPlain = (url: string) =>
  url.startsWith('/.well-known/acme-challenge/') || url === '/healthz' || url.startsWith('/metrics');

/**
 * A second, HTTPS listener beside the app's own (plain HTTP) one, serving the same routes. A new
 * certificate is applied with `setSecureContext`, without a restart: connections made after it see
 * the new certificate, open ones keep theirs. A changed port re-listens.
 */
export const createTlsListener = (app: FastifyInstance, source: TlsSource, limits: HttpLimits) => {
  let server: HttpsServer | null = null;
  let listening: { port: number; host: string | undefined } | null = null;
  let work: Promise<void> = Promise.resolve();

  const close = async () => {
    const s = server;
    server = null;
    listening = null;
    if (!s) return;
    s.closeIdleConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  const open = async (wanted: TlsWanted) => {
    const { serverOptions, ...timeouts } = httpTimeoutOptions(limits);
    const s = createServer(
      { ...serverOptions, cert: wanted.cert, key: wanted.key, requestTimeout: timeouts.requestTimeout },
      (req, res) => app.routing(req, res),
    );
    s.keepAliveTimeout = timeouts.keepAliveTimeout;
    applyHttpLimits(s, limits);
    // The push channel's WebSocket upgrades are answered by the app's own server.
    s.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) =>
      app.server.emit('upgrade', req, socket, head),
    );
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen({ port: wanted.port, host: wanted.host }, () => {
        s.off('error', reject);
        resolve();
      });
    });
    server = s;
    listening = { port: wanted.port, host: wanted.host };
  };

  const apply = async () => {
    const wanted = source.wanted();
    try {
      if (!wanted) await close();
      else if (server && listening?.port === wanted.port && listening.host === wanted.host) {
        server.setSecureContext({ cert: wanted.cert, key: wanted.key });
      } else {
        await close();
        await open(wanted);
      }
      source.report({ port: server ? (server.address() as AddressInfo).port : null, error: null });
    } catch (err) {
      await close();
      source.report({ port: null, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
    }
  };
  /** Changes apply one after another. */
  const queue = () => {
    work = work.then(apply);
    return work;
  };

  source.onChange(queue);
  // Plain HTTP redirects to HTTPS when asked to and HTTPS listens.
  app.addHook('onRequest', async (request, reply) => {
    if ((request.raw.socket as TLSSocket | undefined)?.encrypted) return;
    const wanted = source.wanted();
    if (!wanted?.redirect || !server || keepsPlain(request.url)) return;
    const host = (request.headers.host ?? 'localhost').replace(/:\d+$/, '');
    const port = (server.address() as AddressInfo).port;
    return reply.redirect(`https://${host}${port === 443 ? '' : `:${port}`}${request.url}`, 308);
  });
  app.addHook('onClose', async () => {
    await work;
    await close();
  });
  return {
    /** After the app listens: starts HTTPS when a certificate is wanted. */
    start: queue,
    /** The port HTTPS listens on, or null. */
    port: () => (server ? (server.address() as AddressInfo).port : null),
  };
};
