import type { HostUnavailable } from '@sitewatch/contract/time-network';
import type { z } from 'zod';
import { askHelper } from '../../host-helper/kit.ts';
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

/** One request line, one answer line (askHelper); no helper listening answers `noHelper`. */
export const createHostClient = (socketPath: () => string = hostSocketPath, timeoutMs = 30_000): TimeNetworkHost => ({
  ask: <O extends HostRequest['op']>(request: HostRequest & { op: O }) =>
    askHelper(socketPath(), request, timeoutMs, {
      data: hostData[request.op] as unknown as z.ZodType<Data<O>>,
      failure: hostFailure,
    }),
});
