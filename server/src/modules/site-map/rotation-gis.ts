import { type GisParams, gisParams, type RotationSetting, type rotationInput } from '@sitewatch/contract/site-map';
import type { z } from 'zod';
import { readIdList, readJson, readJsonObject } from '../../db/json.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import type { TopViewRepository } from './repository.ts';

const rotationKey = 'ROTATION';
const gisKey = 'GIS_PARAMS';
/** 001 §9: rotation interval default and minimum 10 s, at least 2 sites. */
export const minInterval = 10;

/** The site rotation (001 §4–§5) and the GIS map's site positions and parameters, stored as settings. */
export const createRotationAndGis = ({ repo, now }: { repo: TopViewRepository; now: () => number }) => {
  const readRotation = async (): Promise<RotationSetting> => {
    const v = readJsonObject((await repo.setting(rotationKey)) ?? '{}');
    return {
      enable: v.enable === true,
      interval:
        typeof v.interval === 'number' && Number.isInteger(v.interval) && v.interval >= minInterval
          ? v.interval
          : minInterval,
      device_group_ids: readIdList(JSON.stringify(v.device_group_ids ?? [])),
    };
  };

  const gisSites = async (scope: SiteScope) => {
    const [sites, counts] = await Promise.all([repo.sites(scope.sites), repo.siteCounts()]);
    return sites.map((s) => ({
      id: s.id,
      name: s.name,
      parent_id: s.parent_id,
      longitude: s.longitude,
      latitude: s.latitude,
      devices: counts.devices.get(s.id) ?? 0,
      alarms: counts.alarms.get(s.id) ?? 0,
    }));
  };

  return {
    /** The rotation setting, its sites limited to those the caller may see. */
    async rotation(scope: SiteScope): Promise<RotationSetting> {
      const r = await readRotation();
      return { ...r, device_group_ids: r.device_group_ids.filter((s) => scope.has(s)) };
    },

    /**
     * 001 §4–§5: checked only when enabled (interval present, an integer ≥ 10, at least 2 sites, each
     * with devices); a disabled setting keeps a valid interval and otherwise stores 10. Sites outside
     * the caller's grant stay as they were (the caller neither sees nor removes them).
     */
    async setRotation(input: z.infer<typeof rotationInput>, scope: SiteScope): Promise<RotationSetting> {
      scope.requireSites(input.device_group_ids);
      const raw = input.interval;
      const text = raw === null || raw === undefined ? '' : String(raw).trim();
      const valid = /^\d+$/.test(text) && Number(text) >= minInterval && Number(text) <= 86_400;
      const chosen = [...new Set(input.device_group_ids)];
      const hidden = (await readRotation()).device_group_ids.filter((s) => !scope.has(s));
      if (input.enable) {
        if (text === '') throw badRequest('topView.intervalEmpty');
        if (!valid) throw badRequest('topView.intervalInvalid');
        if (chosen.length + hidden.length < 2) throw badRequest('topView.twoSites');
      }
      const [sites, counts] = await Promise.all([repo.sites(chosen), repo.siteCounts()]);
      for (const s of chosen) {
        const site = sites.find((x) => x.id === s);
        if (!site) throw badRequest('topView.siteNotFound', { id: s });
        if (!counts.devices.get(s)) throw badRequest('topView.siteWithoutDevices', { name: site.name });
      }
      const setting: RotationSetting = {
        enable: input.enable,
        interval: valid ? Number(text) : minInterval,
        device_group_ids: [...chosen, ...hidden],
      };
      await repo.putSetting(rotationKey, JSON.stringify(setting), now());
      return { ...setting, device_group_ids: chosen };
    },

    gis: gisSites,

    async setGis(sites: { id: number; longitude: number | null; latitude: number | null }[], scope: SiteScope) {
      scope.requireSites(sites.map((s) => s.id));
      const known = new Set((await repo.sites(sites.map((s) => s.id))).map((s) => s.id));
      for (const s of sites) if (!known.has(s.id)) throw notFound('topView.siteNotFound', { id: s.id });
      const round = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);
      const t = now();
      for (const s of sites) await repo.setSitePosition(s.id, round(s.longitude), round(s.latitude), t);
      return gisSites(scope);
    },

    async gisParams(): Promise<GisParams> {
      return readJson((await repo.setting(gisKey)) ?? '{}', gisParams, gisParams.parse({}));
    },

    async setGisParams(input: GisParams): Promise<GisParams> {
      const value = gisParams.parse(input);
      await repo.putSetting(gisKey, JSON.stringify(value), now());
      return value;
    },
  };
};
