// @vitest-environment node
import { componentInput } from '@sitewatch/contract/site-map';
import { describe, expect, it } from 'vitest';
import { recordToInput } from '../../editor/model/placed.ts';
import { createComponent } from '../../editor/model/records.ts';
import { buildTransfer, imagesOf, recordsFromTransfer, transferFile } from './transfer.ts';

const url = (n: string) => `/api/v1/setting/top_view/file/${n.repeat(32)}.png`;
const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('picture export and import', () => {
  const records = [
    createComponent('bg', 'Picture', { serverId: 1, normal_img: url('a'), width: 1366, height: 768 }),
    createComponent('d1', 'Cdefault', {
      serverId: 2,
      left: 100,
      top: 50,
      device_id: 7,
      item_ids: [70, 71],
      link: '/station?deviceId=7',
      normal_img: url('b'),
      abnormal_img: url('c'),
      info: { device: 7, deviceName: 'UPS-1', items: [{ itemId: 70, name: '温度', alarm: false }] },
    }),
    createComponent('d2', 'Cdefault', { serverId: 3, device_id: 8, link: '/station?deviceId=8', normal_img: url('b') }),
    createComponent('t1', 'VText', { serverId: 4, propValue: '机柜区', style: { fontSize: 20, color: '#fff' } }),
  ];

  it('names every image once, with its library', () => {
    expect([...imagesOf(records)]).toEqual([
      [url('a'), 'background'],
      [url('b'), 'icon'],
      [url('c'), 'icon'],
    ]);
  });

  it('goes through a JSON file and comes back as new records of this site with the new image addresses', () => {
    const images = new Map([...imagesOf(records)].map(([u, kind]) => [u, { kind, data: png }]));
    const file = transferFile.parse(
      JSON.parse(JSON.stringify(buildTransfer(records, { width: 1366, height: 768, scale: 100 }, images))),
    );
    const urls = new Map([
      [url('a'), url('d')],
      [url('b'), url('e')],
      [url('c'), url('f')],
    ]);
    const back = recordsFromTransfer(file, urls, { site: 5, parent: 0, devices: new Set([7]) });
    expect(back.map((r) => r.serverId)).toEqual([null, null, null, null]);
    expect(back[0]).toMatchObject({ kind: 'Picture', normal_img: url('d'), device_group_id: 5 });
    // A device of this site keeps its binding; another's is dropped with its link and items.
    expect(back[1]).toMatchObject({
      device_id: 7,
      item_ids: [70, 71],
      normal_img: url('e'),
      abnormal_img: url('f'),
      left: 100,
    });
    expect(back[2]).toMatchObject({ device_id: null, item_ids: [], link: '', info: null });
    expect(back[3]).toMatchObject({ propValue: '机柜区', style: { fontSize: 20, color: '#fff' } });
    // What comes back is what the server accepts.
    for (const r of back) expect(componentInput.safeParse(recordToInput(r)).success).toBe(true);
  });

  it('refuses a file that is not a picture export or carries a script as an image', () => {
    expect(transferFile.safeParse({ format: 'other', version: 1 }).success).toBe(false);
    const file = buildTransfer(
      records.slice(0, 1),
      { width: 1366, height: 768, scale: 100 },
      new Map([[url('a'), { kind: 'background', data: 'data:text/html;base64,PHNjcmlwdD4=' }]]),
    );
    expect(transferFile.safeParse(file).success).toBe(false);
  });
});
