import { createConnection } from 'node:net';
import type { FirewallUnavailable } from '@sitewatch/contract/firewall';
import type { z } from 'zod';
import { type HelperRequest, helperData, helperFailure, type ListeningPort, type TableState } from './protocol.ts';
import type { RenderRule } from './render.ts';

/** An answer of the helper, or why the host cannot be reached or changed. */
export type HostAnswer<T> = { ok: true; data: T } | { ok: false; reason: FirewallUnavailable; detail: string };

/** What the service asks of the host (the helper over its socket; a test's stand-in). */
export interface FirewallHost {
  probe(): Promise<HostAnswer<{ nft: string }>>;
  apply(enabled: boolean, rules: readonly RenderRule[]): Promise<HostAnswer<TableState>>;
  state(): Promise<HostAnswer<TableState>>;
  ports(): Promise<HostAnswer<ListeningPort[]>>;
}

/** The helper's socket: SITEWATCH_FIREWALL_SOCKET, read at each call, else /run/sitewatch/firewall.sock. */
export const helperSocketPath = () => process.env.SITEWATCH_FIREWALL_SOCKET || '/run/sitewatch/firewall.sock';

/** One request line, one answer line; no helper listening answers `noHelper`. */
const ask = <O extends HelperRequest['op']>(
  socketPath: string,
  request: HelperRequest & { op: O },
  timeoutMs: number,
): Promise<HostAnswer<z.infer<(typeof helperData)[O]>>> =>
  new Promise((resolve) => {
    let buffer = '';
    let done = false;
    const finish = (answer: HostAnswer<z.infer<(typeof helperData)[O]>>) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(answer);
    };
    const socket = createConnection(socketPath);
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => finish({ ok: false, reason: 'failed', detail: 'the helper did not answer' }));
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      try {
        const raw = JSON.parse(buffer.slice(0, nl)) as { ok?: boolean; data?: unknown };
        if (raw.ok === true) {
          const data = helperData[request.op].safeParse(raw.data);
          finish(
            data.success
              ? { ok: true, data: data.data as z.infer<(typeof helperData)[O]> }
              : { ok: false, reason: 'failed', detail: 'unexpected answer from the helper' },
          );
          return;
        }
        const failure = helperFailure.safeParse(raw);
        finish(
          failure.success
            ? { ok: false, reason: failure.data.reason, detail: failure.data.detail }
            : { ok: false, reason: 'failed', detail: 'unexpected answer from the helper' },
        );
      } catch {
        finish({ ok: false, reason: 'failed', detail: 'unexpected answer from the helper' });
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        reason: ['ENOENT', 'ECONNREFUSED', 'EACCES', 'ENOTSOCK'].includes(err.code ?? '') ? 'noHelper' : 'failed',
        detail: err.code ?? err.message,
      }),
    );
    socket.on('close', () => finish({ ok: false, reason: 'noHelper', detail: 'the helper closed the connection' }));
  });

/** The host as the helper at `socketPath()` reaches it. */
export const createHelperClient = (socketPath: () => string = helperSocketPath, timeoutMs = 20_000): FirewallHost => ({
  probe: () => ask(socketPath(), { op: 'probe' }, timeoutMs),
  apply: (enabled, rules) =>
    ask(
      socketPath(),
      {
        op: 'apply',
        enabled,
        rules: rules.map((r) => ({
          direction: r.direction,
          source: r.source,
          port: r.port,
          authorised: r.authorised,
          Disabled: r.Disabled,
        })),
      },
      timeoutMs,
    ),
  state: () => ask(socketPath(), { op: 'state' }, timeoutMs),
  ports: () => ask(socketPath(), { op: 'ports' }, timeoutMs),
});
