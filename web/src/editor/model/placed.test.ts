// @vitest-environment node
import { componentInput, type PlacedComponent } from '@sitewatch/contract/site-map';
import { describe, expect, it } from 'vitest';
import { recordFromPlaced, recordToInput } from './placed.ts';
import { TestEditor } from './test-editor.ts';

const placed = (
  id: number,
  extend: PlacedComponent['extend'],
  fields: Partial<PlacedComponent> = {},
): PlacedComponent => ({
  id,
  device_group_id: 3,
  parent_id: 0,
  site_type: 0,
  type: 0,
  device_id: 12,
  device: 'UPS 1',
  link: '/station?deviceId=12',
  normal_img: '',
  abnormal_img: '',
  width: '88',
  height: '88',
  top: '40.5',
  left: '100',
  item_ids: [5, 6],
  video_id: null,
  extend,
  items: [],
  alarm: false,
  ...fields,
});

describe('placed records ⇄ editor records', () => {
  it('reads geometry strings as numbers and the component JSON into the record', () => {
    const record = recordFromPlaced(
      placed(9, {
        component: 'Cdefault',
        selfId: 'n4',
        groupId: 'n7',
        label: 'UPS',
        style: { name: 'UPS 1', fontSize: 12, width: 88, top: 40.5, rotate: 30, zIndex: 4 },
        rotate: 30,
        zIndex: 4,
        isLock: true,
        events: [{ kind: 'alert', value: 'hi' }],
        iconUrl: '',
      }),
    );
    expect(record).toMatchObject({
      id: 'n4',
      serverId: 9,
      kind: 'Cdefault',
      top: 40.5,
      left: 100,
      width: 88,
      rotate: 30,
      zIndex: 4,
      locked: true,
      groupId: 'n7',
      device_id: 12,
      item_ids: [5, 6],
      style: { name: 'UPS 1', fontSize: 12 },
      events: [{ kind: 'alert', value: 'hi' }],
      extend: { iconUrl: '' },
    });
    expect(record.style).not.toHaveProperty('width');
    expect(recordFromPlaced(placed(10, { component: 'Dot' })).id).toBe('s10');
  });

  it('a record read and written back is the same component', () => {
    const first = recordFromPlaced(
      placed(9, { component: 'VText', selfId: 'n4', label: 'Room', propValue: 'Room A', style: { fontSize: 14 } }),
    );
    const input = componentInput.parse(recordToInput(first));
    const again = recordFromPlaced({
      ...placed(9, input.extend),
      ...input,
      id: 9,
      width: '88',
      height: '88',
      top: '40.5',
      left: '100',
    });
    expect(again).toEqual(first);
  });

  it('whatever the editor makes, the contract accepts: new ones without id, groups, pastes, rescaled', () => {
    const te = new TestEditor();
    te.editor.load([
      recordFromPlaced(
        placed(1, { component: 'Picture', selfId: 'bg' }, { width: '1366', height: '768', top: '0', left: '0' }),
      ),
      recordFromPlaced(placed(2, { component: 'Cdefault', selfId: 'a', zIndex: 1 })),
      recordFromPlaced(
        placed(3, { component: 'VText', selfId: 't', zIndex: 2, style: { fontSize: 14 } }, { left: '300' }),
      ),
    ]);
    te.editor.select(['a', 't']);
    te.press('ctrl+g');
    te.press('ctrl+c');
    te.press('ctrl+v');
    te.editor.rotate(te.editor.selection[0]!, 45);
    te.editor.setScale(75);
    te.editor.addComponent('SiteButton', { left: 10.123456, top: 5 });
    const inputs = te.editor.store.all().map(recordToInput);
    for (const input of inputs) expect(componentInput.safeParse(input).error).toBeUndefined();
    // New, so sent without id: the group, the pasted group and its two members, the button.
    expect(inputs.filter((i) => i.id === undefined)).toHaveLength(5);
  });
});
