import { topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { livePatch, liveRefetch, refreshOnAlarmIf } from '../../api/live.ts';
import { patchPicture } from './picture.ts';

export const siteMapKeys = {
  pictures: ['site-map', 'picture'] as const,
  picture: (site: number, type: number, parent: number) => ['site-map', 'picture', site, type, parent] as const,
  backgrounds: (site: number) => ['site-map', 'backgrounds', site] as const,
  rotation: ['site-map', 'rotation'] as const,
};

// Live values patch the cached pictures in place; an alarm push (raised, recovered, operated) of a
// device drawn on a picture reads that picture again, whose answer carries each device's alarm flag:
// the abnormal image follows the alarm by push, without polling (docs/site-map.md "Live views").
livePatch<Awaited<ReturnType<typeof fetchPicture>>>(siteMapKeys.pictures, (data, changes) =>
  patchPicture(data, changes.items),
);
refreshOnAlarmIf<Awaited<ReturnType<typeof fetchPicture>>>(siteMapKeys.pictures, (data, alarm) =>
  data.components.some((c) => c.device_id === alarm.device_id),
);

const fetchPicture = (site: number, type: number, parent: number) =>
  api.call(tv.picture, { query: { device_group_id: site, type, parent_id: parent } });

/** The picture of a site, site type and sub-site; polled only while the push channel is down. */
export const pictureQuery = (site: number, type: number, parent: number) =>
  queryOptions({
    queryKey: siteMapKeys.picture(site, type, parent),
    queryFn: () => fetchPicture(site, type, parent),
    refetchInterval: liveRefetch(5_000),
  });

/** Background records of a site: which site types and sub-sites have a picture. */
export const backgroundsQuery = (site: number) =>
  queryOptions({
    queryKey: siteMapKeys.backgrounds(site),
    queryFn: () => api.call(tv.backgrounds, { query: { device_group_id: site } }),
  });

export const rotationQuery = queryOptions({
  queryKey: siteMapKeys.rotation,
  queryFn: () => api.call(tv.getRotation),
});
