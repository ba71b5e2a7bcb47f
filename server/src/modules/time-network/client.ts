import { createConnection } from 'node:net';
import type { HostUnavailable } from '@sitewatch/contract/time-network';
import type { z } from 'zod';
import { type HostRequest, hostData, hostFailure } from './protocol.ts';

/** An answer of the host helper, or why the host cannot be reached or changed. */
export type HostAnswer<T> = { ok: true; data: T } | { ok: false; reason: HostUnavailable; detail: string };
type Data<O extends HostRequest['op']> = z.infer<(typeof hostData)[O]>;

/** What the area asks of the host (the helper over its socket; a test's stand-in). */
export interface TimeNetworkHost {
  ask<O extends HostRequest['op']>(request: HostRequest & { op: O }): Promise<HostAnswer<Data<O>>>;
}

/** The helper's socket: SITEWATCH_HOST_SOCKET, read at each call, else /run/sitewatch/host.sock. */
export const hostSocketPath = () => process.env.SITEWATCH_HOST_SOCKET || '/run/sitewatch/host.sock';

const unexpected = { ok: false, reason: 'failed', detail: 'unexpected answer from the helper' } as const;

/** One request line, one answer line; no helper listening answers `noHelper`. */
export const createHostClient = (socketPath: () => string = hostSocketPath, timeoutMs = 30_000): TimeNetworkHost => ({
  ask: <O extends HostRequest['op']>(request: HostRequest & { op: O }) =>
    new Promise<HostAnswer<Data<O>>>((resolve) => {
      let buffer = '';
      let done = false;
      const finish = (answer: HostAnswer<Data<O>>) => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve(answer);
      };
      const socket = createConnection(socketPath());
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
            const data = hostData[request.op].safeParse(raw.data);
            finish(data.success ? { ok: true, data: data.data as Data<O> } : unexpected);
            return;
          }
          const failure = hostFailure.safeParse(raw);
          finish(
            failure.success ? { ok: false, reason: failure.data.reason, detail: failure.data.detail } : unexpected,
          );
        } catch {
          finish(unexpected);
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
    }),
});
