import type { ComponentInput, ComponentJson, PlacedComponent } from '@sitewatch/contract/site-map';
import type { ComponentRecord } from './records.ts';

/**
 * A placed record as the server answers it (geometry as strings, the component JSON in `extend`)
 * turned into an editor record. The editor's id is the stored selfId, so group membership (which
 * names selfIds) survives a reload; a record saved without one gets `s<record id>`.
 */
export const recordFromPlaced = (placed: PlacedComponent): ComponentRecord => {
  const json = placed.extend;
  const { width, height, top, left, rotate, zIndex, ...style } = json.style ?? {};
  return {
    id: json.selfId || `s${placed.id}`,
    serverId: placed.id,
    kind: json.component,
    type: placed.type,
    label: json.label ?? '',
    top: Number(placed.top),
    left: Number(placed.left),
    width: Number(placed.width),
    height: Number(placed.height),
    rotate: json.rotate ?? rotate ?? 0,
    zIndex: json.zIndex ?? zIndex ?? 0,
    locked: json.isLock ?? false,
    groupId: json.groupId ?? null,
    device_id: placed.device_id,
    device_group_id: placed.device_group_id,
    parent_id: placed.parent_id,
    link: placed.link,
    normal_img: placed.normal_img,
    abnormal_img: placed.abnormal_img,
    item_ids: placed.item_ids,
    video_id: placed.video_id,
    info: json.device ?? null,
    propValue: json.propValue ?? null,
    style,
    events: json.events ?? [],
    animations: json.animations ?? [],
    dialog: json.dialog ?? null,
    extend: {
      ...(json.groupStyle === undefined ? {} : { groupStyle: json.groupStyle }),
      ...(json.iconUrl === undefined ? {} : { iconUrl: json.iconUrl }),
    },
  };
};

/**
 * An editor record as the save sends it: no id while new (the server creates it), geometry in the
 * record fields and, as the spec's client keeps it, in the style too; the component JSON in `extend`.
 */
export const recordToInput = (record: ComponentRecord): ComponentInput => {
  const geometry = {
    width: record.width,
    height: record.height,
    top: record.top,
    left: record.left,
    rotate: record.rotate,
    zIndex: record.zIndex,
  };
  const extend: ComponentJson = {
    component: record.kind,
    selfId: record.id,
    groupId: record.groupId,
    label: record.label,
    ...(record.propValue === null ? {} : { propValue: record.propValue }),
    style: { ...record.style, ...geometry },
    events: record.events,
    animations: record.animations,
    dialog: record.dialog,
    device: record.info,
    rotate: record.rotate,
    zIndex: record.zIndex,
    isLock: record.locked,
    ...record.extend,
  };
  return {
    ...(record.serverId === null ? {} : { id: record.serverId }),
    type: record.type,
    device_id: record.device_id,
    link: record.link,
    normal_img: record.normal_img,
    abnormal_img: record.abnormal_img,
    width: record.width,
    height: record.height,
    top: record.top,
    left: record.left,
    item_ids: record.item_ids,
    video_id: record.video_id,
    extend,
  };
};
