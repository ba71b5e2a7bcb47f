import { z } from 'zod';
import { tParam } from './envelope.ts';
import { ifMetric } from './monitoring/if-mib.ts';
import { stateCode } from './monitoring.ts';
import { defineRoute } from './route.ts';

/**
 * Network devices (002 §2.1 /network_device, §7.3 `net_resource_Manage/overview` and `port_net`;
 * their content is not shown in the spec: docs/network-devices.md). A network device is a device
 * with the `snmp-ifmib` driver; its ports are the ifIndex values its items name, and each port
 * metric is one monitored item, so its state and alarms are the alarm engine's.
 */

const id = z.coerce.number().int().min(1).max(2_147_483_647);

export const networkOverviewQuery = z.object({
  device_group_id: id.optional().describe('Only network devices of this site (and its sub-sites).'),
  t: tParam,
});

/** One network device as the overview lists it. */
export const networkDeviceSummary = z.object({
  id: z.number().int().describe('Device id.'),
  name: z.string().describe('Device name.'),
  device_group_id: z.number().int().describe('Site of the device.'),
  device_group_name: z.string().describe('Name of that site.'),
  ip: z.string().describe('Address of the SNMP agent.'),
  enable: z.boolean().describe('Whether the device is polled.'),
  state: stateCode.describe(
    'Device state: 0 not ready, 1 normal, 2 abnormal, 3 warning, 4 unknown, 5 serious, 6 jitter.',
  ),
  state_reason: z.string().describe("Why the device is in that state, or ''."),
  ports: z.number().int().describe('Ports watched (ifIndex values with at least one item).'),
  ports_up: z.number().int().describe('Ports whose ifOperStatus is up.'),
  /** Administratively up and not operationally up (the port_down metric is 1). */
  ports_down: z.number().int().describe('Ports administratively up but not operationally up.'),
  ports_admin_down: z.number().int().describe('Ports shut down on purpose (ifAdminStatus down).'),
  /** Open alarms of the device's items and its communication. */
  alarms: z.number().int().describe('Open alarms of the device.'),
  in_bps: z.number().nullable().describe('Sum of the ports’ inbound traffic, bit/s (null: no rate known yet).'),
  out_bps: z.number().nullable().describe('Sum of the ports’ outbound traffic, bit/s (null: no rate known yet).'),
  last_update: z.number().int().describe('Newest check of any of its items (epoch seconds; 0: none yet).'),
});
export type NetworkDeviceSummary = z.infer<typeof networkDeviceSummary>;

export const networkOverview = z.object({
  total: z.number().int().describe('Network devices the caller may see.'),
  ports: z.number().int().describe('Ports watched on them.'),
  ports_down: z.number().int().describe('Ports down (administratively up, not operationally up).'),
  alarms: z.number().int().describe('Open alarms of those devices.'),
  data: z.array(networkDeviceSummary),
});
export type NetworkOverview = z.infer<typeof networkOverview>;

export const portNetQuery = z.object({ device_id: id.describe('The network device.'), t: tParam });

/** One metric of one port: its item, value and state (the alarm engine's). */
export const portMetric = z.object({
  item_id: z.number().int().describe('The monitored item of this metric.'),
  value: z.number().nullable().describe('Last value (null: none yet).'),
  state: stateCode.describe('Item state (4 unknown: no current value, see info).'),
  info: z.string().describe("Why there is no current value, or ''."),
});
export type PortMetric = z.infer<typeof portMetric>;

export const portRow = z.object({
  if_index: z.number().int().describe('ifIndex on the agent.'),
  /** The point name of the port's items (ifName or ifDescr when they were added from a walk). */
  name: z.string().describe('Port name (the item_cell_name of its items).'),
  /** Worst state of the port's items: the port is shown in it. */
  state: stateCode.describe('Worst state of the port’s items.'),
  alarm: z.boolean().describe('Whether an item of the port has an open alarm.'),
  metrics: z.partialRecord(ifMetric, portMetric).describe('The port’s metrics that have an item, by metric name.'),
});
export type PortRow = z.infer<typeof portRow>;

export const portNet = z.object({
  device: networkDeviceSummary,
  ports: z.array(portRow),
});
export type PortNet = z.infer<typeof portNet>;

/** One port as a walk of the agent's ifTable finds it, with the metrics that already have an item. */
export const walkedPort = z.object({
  if_index: z.number().int().describe('ifIndex on the agent.'),
  name: z.string().describe('ifName, or ifDescr where the agent has no ifName.'),
  descr: z.string().describe('ifDescr.'),
  alias: z.string().describe('ifAlias (the description an administrator gave the port).'),
  admin_status: z.number().int().nullable().describe('ifAdminStatus (1 up, 2 down, 3 testing).'),
  oper_status: z.number().int().nullable().describe('ifOperStatus (1 up, 2 down, … 7 lowerLayerDown).'),
  speed_mbps: z.number().nullable().describe('Speed in Mbit/s (ifHighSpeed, else ifSpeed).'),
  metrics: z.array(ifMetric).describe('Metrics of this port that already have an item on the device.'),
});
export type WalkedPort = z.infer<typeof walkedPort>;

const tags = ['network'];

export const networkRoutes = {
  overview: defineRoute({
    method: 'GET',
    path: 'net_resource_Manage/overview',
    summary: 'Network devices of the granted sites with their port counts (up, down, shut), traffic and open alarms',
    tags,
    query: networkOverviewQuery,
    response: networkOverview,
  }),
  ports: defineRoute({
    method: 'GET',
    path: 'port_net',
    summary: 'The ports of one network device: states, speed, traffic, utilisation, errors and discards',
    tags,
    query: portNetQuery,
    response: portNet,
  }),
  walk: defineRoute({
    method: 'GET',
    path: 'net_resource_Manage/ports_walk',
    summary: "Walks a network device's ifTable now: its ports with names, states and speed, to add their items",
    tags,
    query: portNetQuery,
    response: z.object({ ports: z.array(walkedPort).describe('The ports the agent lists, by ifIndex.') }),
  }),
};
