import { type PortNet, networkRoutes as r } from '@sitewatch/contract/network';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { livePatch, liveRefetch } from '../../api/live.ts';

/** Port values come by push; only while the push channel is down are they polled this often (ms). */
const liveRefreshMs = 5000;

/** Device counts (ports up and down, alarms) are re-read this often; the port grids are live. */
const overviewRefreshMs = 10_000;

export const networkOverviewQuery = (siteId: number | null) =>
  queryOptions({
    queryKey: ['network', 'overview', siteId],
    queryFn: () => api.call(r.overview, { query: siteId === null ? {} : { device_group_id: siteId } }),
    refetchInterval: overviewRefreshMs,
  });

export const portNetQuery = (deviceId: number) =>
  queryOptions({
    queryKey: ['network', 'ports', deviceId],
    queryFn: () => api.call(r.ports, { query: { device_id: deviceId } }),
    refetchInterval: liveRefetch(liveRefreshMs),
  });

// Each port metric is an item: a pushed item value or state replaces the metric in place.
livePatch<PortNet>(['network', 'ports'], (net, changes) => {
  let changed = false;
  const ports = net.ports.map((port) => {
    let metrics = port.metrics;
    for (const [name, metric] of Object.entries(port.metrics)) {
      const u = metric ? changes.items.get(metric.item_id) : undefined;
      if (!metric || !u) continue;
      metrics = { ...metrics, [name]: { ...metric, value: u.value, state: u.state, info: u.info } };
    }
    if (metrics === port.metrics) return port;
    changed = true;
    return { ...port, metrics };
  });
  const d = changes.devices.get(net.device.id);
  if (!changed && !d) return net;
  return {
    device: d ? { ...net.device, state: d.state, state_reason: d.state_reason } : net.device,
    ports,
  };
});
