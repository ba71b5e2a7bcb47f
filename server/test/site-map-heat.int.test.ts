import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { heatItemOf, type PlacedComponent } from '@sitewatch/contract/site-map';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPurpose, fillPurposes } from '../src/db/migrations/0031-item-purpose.ts';
import { apiCalls } from './helpers/api-calls.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { png, postImage } from './helpers/site-estate.ts';

describe('the purpose an existing item defaults to', () => {
  it('is a room sensor’s temperature or humidity, never a battery’s or an internal one', () => {
    expect(defaultPurpose('temp_hum', '温度', '℃')).toBe('room_temperature');
    expect(defaultPurpose('temp_hum', 'Temperature', '')).toBe('room_temperature');
    expect(defaultPurpose('temp_hum', 'monitoring.items.temperature', '℃')).toBe('room_temperature');
    expect(defaultPurpose('temp_hum', '湿度', '%RH')).toBe('room_humidity');
    expect(defaultPurpose('temp_hum', '机柜内部温度', '℃')).toBe('');
    expect(defaultPurpose('temp_hum', 'Battery temperature', '℃')).toBe('');
    expect(defaultPurpose('temp_hum', '露点温度', '℃')).toBe('');
    // Only a room sensor's: a UPS's or an air conditioner's temperatures are not the room's.
    expect(defaultPurpose('ups', '电池温度', '℃')).toBe('');
    expect(defaultPurpose('ups', '温度', '℃')).toBe('');
    expect(defaultPurpose('air', '回风温度', '℃')).toBe('');
  });
});

/**
 * Which items the heat map takes (issue 38; docs/site-map.md "Heat map"): only those whose purpose
 * is the room temperature — from the template's point, set on the item, or filled by migration 0031
 * — never UPS-01's battery temperature beside TH-01.
 */
describeEachDatabase('heat map sensors', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-heat-'));
  const t = useTestApp(dialect, { dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const { ok } = apiCalls(t);
  const ids = { site: 0, th: 0, ups: 0, rack: 0, internal: 0 };
  let bg = '';

  /** The picture as /map reads it, and the item the heat map takes from each device on it. */
  const heatItems = async () => {
    const pic = await ok('GET', `setting/top_view/device?device_group_id=${ids.site}`);
    return Object.fromEntries(
      (pic.components as PlacedComponent[]).map((c) => [c.device, heatItemOf(c.items)?.name ?? null]),
    );
  };
  const itemsOf = async (device: number) =>
    (await ok('GET', `setting/items?device_id=${device}&limit=100`)).data as {
      id: number;
      name: string;
      purpose: string;
    }[];

  beforeAll(async () => {
    bg = (await postImage(t.app, 'image_backgroup', 'image', 'room.png', png)).json().data.url;
    ids.site = (await ok('POST', 'setting/device_groups', { name: 'Heat room', weight: 1 })).id;
    const device = async (name: string, code: string, template_id?: number) =>
      (
        await ok('POST', 'setting/devices', {
          name,
          device_group_id: ids.site,
          driver: 'simulator',
          code,
          ...(template_id ? { template_id } : {}),
        })
      ).id as number;
    // The built-in simulated templates: 1 temperature and humidity, 2 UPS (with a battery temperature).
    ids.th = await device('TH-01', 'temp_hum', 1);
    ids.ups = await device('UPS-01', 'ups', 2);
    // A rack sensor made by hand, with its internal temperature only.
    ids.rack = await device('RACK-01', 'temp_hum');
    ids.internal = (
      await ok('POST', 'setting/items', {
        device_id: ids.rack,
        name: '机柜内部温度',
        value_type: 1,
        threshold_min: 10,
        threshold_max: 40,
        overrun_point: 0,
        recovery_point: 1,
        source: { kind: 'simulator', model: 'analog', base: 30 },
      })
    ).id;
    const placed = (device: number, left: number) => ({
      type: 0,
      device_id: device,
      width: 88,
      height: 108,
      top: 200,
      left,
      item_ids: [],
      extend: { component: 'Cdefault', selfId: `d${device}`, zIndex: 1 },
    });
    await ok('PUT', 'setting/top_view/device', {
      device_group_id: ids.site,
      background: { background: bg },
      components: [placed(ids.th, 100), placed(ids.ups, 400), placed(ids.rack, 700)],
    });
  });

  it('takes TH-01’s room temperature from its template, and neither UPS-01’s battery nor an internal temperature', async () => {
    const ups = await itemsOf(ids.ups);
    // The UPS has a temperature by name, the one the heat map used to take.
    expect(ups.some((i) => /温度/.test(i.name))).toBe(true);
    expect(ups.every((i) => i.purpose === '')).toBe(true);
    const th = await itemsOf(ids.th);
    expect(th.map((i) => i.purpose).sort()).toEqual(['room_humidity', 'room_temperature']);
    expect(await heatItems()).toEqual({ 'TH-01': '温度', 'UPS-01': null, 'RACK-01': null });
  });

  it('takes an item whose purpose is set on it, keeps the purpose when an update leaves it out, drops it when cleared', async () => {
    const body = async (purpose?: string) => {
      const [item] = (await itemsOf(ids.rack)).filter((i) => i.id === ids.internal);
      const {
        id: _id,
        device_name: _d,
        device_group_id: _g,
        state: _s,
        value: _v,
        last_check: _l,
        info: _i,
        ...rest
      } = item as unknown as Record<string, unknown>;
      const { purpose: _p, ...withoutPurpose } = rest;
      return purpose === undefined ? withoutPurpose : { ...withoutPurpose, purpose };
    };
    await ok('PUT', `setting/items/${ids.internal}`, await body('room_temperature'));
    expect((await heatItems())['RACK-01']).toBe('机柜内部温度');
    await ok('PUT', `setting/items/${ids.internal}`, await body());
    expect((await heatItems())['RACK-01']).toBe('机柜内部温度');
    await ok('PUT', `setting/items/${ids.internal}`, await body(''));
    expect((await heatItems())['RACK-01']).toBeNull();
  });

  it('fills the purposes of items saved before migration 0031 from their template and name', async () => {
    const k = t.database.db.kysely;
    await k.updateTable('items').set({ purpose: '' }).execute();
    // A hand-made room temperature on the rack sensor, beside its internal one.
    await ok('POST', 'setting/items', {
      device_id: ids.rack,
      name: '温度',
      unit: '℃',
      value_type: 1,
      threshold_min: 10,
      threshold_max: 40,
      overrun_point: 0,
      recovery_point: 1,
      source: { kind: 'simulator', model: 'analog', base: 22 },
    });
    await k.updateTable('items').set({ purpose: '' }).execute();
    await fillPurposes(k as unknown as Parameters<typeof fillPurposes>[0]);
    expect(await heatItems()).toEqual({ 'TH-01': '温度', 'UPS-01': null, 'RACK-01': '温度' });
    expect((await itemsOf(ids.rack)).map((i) => [i.name, i.purpose])).toEqual([
      ['机柜内部温度', ''],
      ['温度', 'room_temperature'],
    ]);
  });
});
