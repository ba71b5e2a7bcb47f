import type { FirewallUnavailable } from '@sitewatch/contract/firewall';
import type { z } from 'zod';
import { askHelper } from '../../host-helper/kit.ts';
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

/** One request line, one answer line (askHelper); no helper listening answers `noHelper`. */
const ask = <O extends HelperRequest['op']>(
  socketPath: string,
  request: HelperRequest & { op: O },
  timeoutMs: number,
): Promise<HostAnswer<z.infer<(typeof helperData)[O]>>> =>
  askHelper(socketPath, request, timeoutMs, {
    data: helperData[request.op] as unknown as z.ZodType<z.infer<(typeof helperData)[O]>>,
    failure: helperFailure,
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
