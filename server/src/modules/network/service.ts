import { type IfMetric, ifMibSource, monitorState } from '@sitewatch/contract/monitoring';
import type { NetworkDeviceSummary, NetworkOverview, PortNet, PortRow, WalkedPort } from '@sitewatch/contract/network';
import { readJsonObject } from '../../db/json.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { NetworkRepository } from './repository.ts';

/** What the pages need of the collector: live item and device states (absent: the stored ones). */
export interface NetworkLiveSource {
  liveItem(itemId: number): { value: number | null; state: number; last_check: number; info: string } | undefined;
  liveDevice(deviceId: number): { state: number; reason: string; time: number } | undefined;
}

export interface NetworkDeps {
  repo: NetworkRepository;
  live?: NetworkLiveSource | undefined;
  /** Writes the alarm engine's pending rows, so open alarms are current. */
  flushAlarms?: (() => Promise<void>) | undefined;
  /**
   * Walks the ports of an enabled device (its SNMP settings with secrets decrypted): undefined when
   * the device is not enabled; rejects when the agent does not answer.
   */
  walkPorts?: ((deviceId: number) => Promise<Omit<WalkedPort, 'metrics'>[] | undefined>) | undefined;
}

type Allowed = number[] | null;

/** How bad a state is, for the worst state of a port (jitter and serious above warning, unknown above abnormal). */
const severity: Record<number, number> = {
  [monitorState.notReady]: 0,
  [monitorState.normal]: 1,
  [monitorState.abnormal]: 3,
  [monitorState.unknown]: 2,
  [monitorState.warning]: 4,
  [monitorState.jitter]: 5,
  [monitorState.serious]: 6,
};
const worse = (a: number, b: number) => ((severity[b] ?? 0) > (severity[a] ?? 0) ? b : a);

const ifUp = 1;
const ifDown = 2;

/** The overview and port views of network devices (docs/network-devices.md). */
export const createNetworkService = (deps: NetworkDeps) => {
  const { repo } = deps;

  /** The site and every site under it, within the allowed ones. */
  const siteFilter = async (siteId: number | undefined, allowed: Allowed): Promise<Allowed> => {
    if (siteId === undefined) return allowed;
    const sites = await repo.sites();
    const children = new Map<number, number[]>();
    for (const s of sites) children.set(s.parent_id, [...(children.get(s.parent_id) ?? []), s.id]);
    const found: number[] = [];
    const stack = [siteId];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (found.includes(id)) continue;
      found.push(id);
      stack.push(...(children.get(id) ?? []));
    }
    return allowed === null ? found : found.filter((id) => allowed.includes(id));
  };

  /** Devices with their ports built from their items, live values laid over the stored ones. */
  const load = async (allowed: Allowed, deviceId?: number) => {
    await deps.flushAlarms?.();
    const devices = await repo.devices(allowed, deviceId);
    const ids = devices.map((d) => d.id);
    const [items, alarms] = await Promise.all([repo.items(ids), repo.openAlarms(ids)]);
    const alarmingItems = new Set(alarms.map((a) => a.item_id));
    const alarmsOf = new Map<number, number>();
    for (const a of alarms) alarmsOf.set(a.device_id, (alarmsOf.get(a.device_id) ?? 0) + 1);

    const portsOf = new Map<number, Map<number, PortRow>>();
    const lastOf = new Map<number, number>();
    for (const item of items) {
      const source = ifMibSource.safeParse(readJsonObject(item.source));
      if (!source.success) continue;
      const live = item.enable === 1 ? deps.live?.liveItem(item.id) : undefined;
      const current = live ?? { value: item.value, state: item.state, last_check: item.last_check, info: item.info };
      const ports = portsOf.get(item.device_id) ?? new Map<number, PortRow>();
      portsOf.set(item.device_id, ports);
      const { if_index, metric } = source.data;
      let port = ports.get(if_index);
      if (!port) {
        port = { if_index, name: item.item_cell_name, state: monitorState.notReady, alarm: false, metrics: {} };
        ports.set(if_index, port);
      }
      if (!port.name && item.item_cell_name) port.name = item.item_cell_name;
      // One item per metric and port; a second one of the same metric is shown no more than once.
      if (port.metrics[metric]) continue;
      port.metrics[metric] = { item_id: item.id, value: current.value, state: current.state, info: current.info };
      port.state = worse(port.state, current.state);
      if (alarmingItems.has(item.id)) port.alarm = true;
      lastOf.set(item.device_id, Math.max(lastOf.get(item.device_id) ?? 0, current.last_check));
    }

    return devices.map((d) => {
      const ports = [...(portsOf.get(d.id)?.values() ?? [])].sort((a, b) => a.if_index - b.if_index);
      const value = (p: PortRow, m: IfMetric) => p.metrics[m]?.value ?? null;
      /** A sum over the ports that have the metric; null when none has a current value. */
      const total = (m: IfMetric) => {
        const known = ports.filter((p) => p.metrics[m] && p.metrics[m].state !== monitorState.unknown);
        const values = known.map((p) => value(p, m)).filter((v): v is number => v !== null);
        return values.length === 0 ? null : Math.round(values.reduce((s, v) => s + v, 0));
      };
      const liveDevice = d.enable === 1 ? deps.live?.liveDevice(d.id) : undefined;
      const summary: NetworkDeviceSummary = {
        id: d.id,
        name: d.name,
        device_group_id: d.device_group_id,
        device_group_name: d.device_group_name,
        ip: d.ip,
        enable: d.enable === 1,
        state: liveDevice?.state ?? d.state,
        state_reason: liveDevice?.reason ?? d.state_reason,
        ports: ports.length,
        ports_up: ports.filter((p) => value(p, 'oper_status') === ifUp).length,
        ports_down: ports.filter(
          (p) =>
            value(p, 'port_down') === 1 ||
            (p.metrics.port_down === undefined &&
              value(p, 'admin_status') === ifUp &&
              value(p, 'oper_status') !== null &&
              value(p, 'oper_status') !== ifUp),
        ).length,
        ports_admin_down: ports.filter((p) => value(p, 'admin_status') === ifDown).length,
        alarms: alarmsOf.get(d.id) ?? 0,
        in_bps: total('in_bps'),
        out_bps: total('out_bps'),
        last_update: lastOf.get(d.id) ?? 0,
      };
      return { summary, ports };
    });
  };

  return {
    async overview(query: { device_group_id?: number | undefined }, allowed: Allowed): Promise<NetworkOverview> {
      const rows = await load(await siteFilter(query.device_group_id, allowed));
      const data = rows.map((r) => r.summary);
      return {
        total: data.length,
        ports: data.reduce((s, d) => s + d.ports, 0),
        ports_down: data.reduce((s, d) => s + d.ports_down, 0),
        alarms: data.reduce((s, d) => s + d.alarms, 0),
        data,
      };
    },

    /** One device's ports; a device of another site (or not a network device) is not found. */
    async ports(deviceId: number, allowed: Allowed): Promise<PortNet> {
      const [row] = await load(allowed, deviceId);
      if (!row) throw notFound();
      return { device: row.summary, ports: row.ports };
    },

    /** The agent's ports now, with the metrics each already has an item for. */
    async walk(deviceId: number, allowed: Allowed): Promise<{ ports: WalkedPort[] }> {
      const [row] = await load(allowed, deviceId);
      if (!row) throw notFound();
      if (!deps.walkPorts) throw badRequest('monitoring.errors.collectorOff');
      let walked: Omit<WalkedPort, 'metrics'>[] | undefined;
      try {
        walked = await deps.walkPorts(deviceId);
      } catch (err) {
        throw badRequest('network.walkFailed', { reason: err instanceof Error ? err.message : String(err) });
      }
      if (!walked) throw badRequest('network.deviceDisabled');
      const have = new Map(row.ports.map((p) => [p.if_index, Object.keys(p.metrics) as IfMetric[]]));
      return { ports: walked.map((p) => ({ ...p, metrics: have.get(p.if_index) ?? [] })) };
    },
  };
};
