import { firewallDirection, firewallUnavailable, portSpan, sourceProblem } from '@sitewatch/contract/firewall';
import { z } from 'zod';

/**
 * The helper's protocol (docs/firewall.md, "The helper"): one JSON object per line over a unix
 * socket, one answer line per request. The helper renders the nftables text itself from rule data:
 * no request carries text that reaches `nft` as it is.
 */
const rule = z.strictObject({
  direction: firewallDirection,
  source: z
    .string()
    .max(64)
    .refine((s) => sourceProblem(s) === null),
  port: z
    .string()
    .max(16)
    .refine((p) => portSpan(p) !== null),
  authorised: z.boolean(),
  Disabled: z.boolean(),
});

export const helperRequest = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('probe') }),
  z.strictObject({ op: z.literal('apply'), enabled: z.boolean(), rules: z.array(rule).max(200) }),
  z.strictObject({ op: z.literal('state') }),
  z.strictObject({ op: z.literal('ports') }),
]);
export type HelperRequest = z.infer<typeof helperRequest>;

export const helperFailure = z.object({
  ok: z.literal(false),
  reason: firewallUnavailable,
  detail: z.string(),
});
export type HelperFailure = z.infer<typeof helperFailure>;

export const tableState = z.object({ table: z.boolean(), rules: z.number().int() });
export type TableState = z.infer<typeof tableState>;

export const listeningPort = z.object({
  protocol: z.string(),
  address: z.string(),
  port: z.number().int(),
  process: z.string(),
});
export type ListeningPort = z.infer<typeof listeningPort>;

/** What each request answers on success. */
export const helperData = {
  probe: z.object({ nft: z.string() }),
  apply: tableState,
  state: tableState,
  ports: z.array(listeningPort),
} as const;

/** Longest request line the helper reads (200 rules are well under it). */
export const maxLineBytes = 256 * 1024;
