import { z } from 'zod';

/**
 * Port metrics of a network device read over SNMP IF-MIB (docs/network-devices.md). Each is one
 * monitored item of the device, so thresholds, alarms, series and push work as for any item.
 *
 * - `admin_status`, `oper_status`: ifAdminStatus, ifOperStatus as the agent answers them
 *   (1 up, 2 down, 3 testing, 4 unknown, 5 dormant, 6 notPresent, 7 lowerLayerDown).
 * - `port_down`: 1 when the port is administratively up and not operationally up, else 0; the
 *   port-down alarm is a status threshold of 1 on it (a port shut down on purpose is no alarm).
 * - `speed_mbps`: ifHighSpeed, or ifSpeed / 1e6 where the agent has no ifXTable.
 * - `in_bps`, `out_bps`: bits per second from ifHCInOctets / ifHCOutOctets between two reads.
 * - `in_util`, `out_util`: those rates as a percentage of the speed.
 * - `in_errors`, `out_errors`, `in_discards`, `out_discards`: ifIn/OutErrors and ifIn/OutDiscards
 *   as packets per second between two reads.
 */
export const ifMetrics = [
  'admin_status',
  'oper_status',
  'port_down',
  'speed_mbps',
  'in_bps',
  'out_bps',
  'in_util',
  'out_util',
  'in_errors',
  'out_errors',
  'in_discards',
  'out_discards',
] as const;
export const ifMetric = z.enum(ifMetrics);
export type IfMetric = z.infer<typeof ifMetric>;

/** Metrics that are rates between two reads (no value at the first read, nor across an agent restart). */
export const ifRateMetrics: ReadonlySet<IfMetric> = new Set([
  'in_bps',
  'out_bps',
  'in_util',
  'out_util',
  'in_errors',
  'out_errors',
  'in_discards',
  'out_discards',
]);

/** Metrics that are states (value type 0): the others are numeric. */
export const ifStatusMetrics: ReadonlySet<IfMetric> = new Set(['admin_status', 'oper_status', 'port_down']);

/** The item source of one port metric (driver `snmp-ifmib`). */
export const ifMibSource = z.strictObject({
  kind: z.literal('snmp-ifmib').describe('snmp-ifmib: one metric of one port of a switch or router (IF-MIB).'),
  if_index: z.number().int().min(1).max(2_147_483_647).describe('The port: its ifIndex on the agent.'),
  metric: ifMetric.describe(
    'admin_status, oper_status, port_down (1: admin up, oper not up), speed_mbps, in_bps, out_bps, in_util and out_util (%), in_errors, out_errors, in_discards, out_discards (per second).',
  ),
});
export type IfMibSource = z.infer<typeof ifMibSource>;
