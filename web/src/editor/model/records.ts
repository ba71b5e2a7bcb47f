/**
 * The records the site-map editor holds: one per component on the canvas (001 §3 "Canvas component"),
 * plus the canvas settings. Plain, immutable data: the store replaces a record, never mutates it.
 */

import { type ComponentJson, componentKinds } from '@sitewatch/contract/site-map';

/** Every component kind of 001 §3 (`Group` holds grouped components): the contract's list. */
export { componentKinds };

export type ComponentKind = (typeof componentKinds)[number];

/** Component `type` of 001 §3: 0 is a device-type component; 1 and 3 are also seen in stored data. */
export type ComponentType = number;

// The parts of a component are the contract's component JSON (packages/contract/src/site-map.ts),
// declared once there and checked by the server on save.

/** Geometry kept on the record itself, not in its style. */
type GeometryKey = 'width' | 'height' | 'top' | 'left' | 'rotate' | 'zIndex';

/** Style of a component (001 §3 "style"): fontSize and borderWidth rescale with the canvas. */
export type ComponentStyle = Omit<NonNullable<ComponentJson['style']>, GeometryKey>;

/** Device binding of a component (001 §3 `info`). */
export type DeviceInfo = NonNullable<ComponentJson['device']>;

/** A monitored item shown by a component (001 §3 "Monitored item in a component"). */
export type ComponentItem = DeviceInfo['items'][number];

/** Component event (001 §3 "Other"): redirect to a URL, alert text or a callback. */
export type ComponentEvent = NonNullable<ComponentJson['events']>[number];

/** Animation of a component; categories enter, emphasis, exit (001 §3). */
export type ComponentAnimation = NonNullable<ComponentJson['animations']>[number];

/** Popup on a component (001 §3 `dialog`). */
export type ComponentDialog = NonNullable<ComponentJson['dialog']>;

/** Kind-specific value (text of a VText, switch number, line points …). */
export type PropValue = NonNullable<ComponentJson['propValue']> | null;

/** Keys of the component JSON this editor carries without interpreting them. */
export type ComponentExtend = Pick<ComponentJson, 'groupStyle' | 'iconUrl'>;

/**
 * One component on the canvas. Geometry is in canvas pixels at the current scale, as 001 stores it.
 * `id` is the editor's own identity (the spec's selfId/localId); `serverId` is the placed record's
 * id, null while the component is new (the spec's isNew).
 */
export interface ComponentRecord {
  id: string;
  serverId: number | null;
  kind: ComponentKind;
  type: ComponentType;
  label: string;
  top: number;
  left: number;
  width: number;
  height: number;
  /** Degrees clockwise, 0 ≤ rotate < 360. */
  rotate: number;
  /** Stacking order among siblings (top-level components, or the members of one group). */
  zIndex: number;
  /** The spec's isLock. */
  locked: boolean;
  /** Id of the Group record this component belongs to, null when it is top-level. */
  groupId: string | null;
  /** Device binding (001 §3 placed record): device_id, site, sub-site, link, icons, items, video. */
  device_id: number | null;
  device_group_id: number | null;
  /** Sub-site; 0 is the home view. */
  parent_id: number;
  link: string;
  normal_img: string;
  abnormal_img: string;
  item_ids: number[];
  video_id: number | null;
  info: DeviceInfo | null;
  propValue: PropValue;
  style: ComponentStyle;
  events: ComponentEvent[];
  animations: ComponentAnimation[];
  dialog: ComponentDialog | null;
  /** Keys of the stored component JSON (`extend`) that this editor does not interpret, kept as they came. */
  extend: ComponentExtend;
}

/** Canvas settings (001 §3 "Canvas style defaults"). Scale is in percent. */
export interface CanvasSettings {
  width: number;
  height: number;
  scale: number;
}

export const defaultCanvas: CanvasSettings = { width: 1366, height: 768, scale: 100 };

/** Default sizes by kind; icons follow the recommended 88×88 (001 §5), the background the canvas. */
const defaultSizes: Partial<Record<ComponentKind, { width: number; height: number }>> = {
  Picture: { width: 1366, height: 768 },
  VText: { width: 120, height: 30 },
  VButton: { width: 100, height: 34 },
  SiteButton: { width: 100, height: 34 },
  SiteName: { width: 160, height: 30 },
  Items: { width: 160, height: 120 },
  Line_x: { width: 200, height: 2 },
  Line_y: { width: 2, height: 200 },
  LineBroken: { width: 200, height: 100 },
  Line_link: { width: 200, height: 2 },
  Dot: { width: 12, height: 12 },
};

/** Kinds whose text size is part of their style by default. */
const textKinds: ReadonlySet<ComponentKind> = new Set(['VText', 'VButton', 'SiteButton', 'SiteName', 'Items']);

/** A new component of `kind` with its default size; `fields` override any default. */
export const createComponent = (
  id: string,
  kind: ComponentKind,
  fields: Partial<Omit<ComponentRecord, 'id' | 'kind'>> = {},
): ComponentRecord => {
  const size = defaultSizes[kind] ?? { width: 88, height: 88 };
  return {
    id,
    serverId: null,
    kind,
    type: 0,
    label: '',
    top: 0,
    left: 0,
    width: size.width,
    height: size.height,
    rotate: 0,
    zIndex: 0,
    locked: false,
    groupId: null,
    device_id: null,
    device_group_id: null,
    parent_id: 0,
    link: '',
    normal_img: '',
    abnormal_img: '',
    item_ids: [],
    video_id: null,
    info: null,
    propValue: null,
    style: textKinds.has(kind) ? { fontSize: 14, borderWidth: 0 } : {},
    events: [],
    animations: [],
    dialog: null,
    extend: {},
    ...fields,
  };
};
