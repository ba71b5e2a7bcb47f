import { formatValue } from '@sitewatch/contract';
import type { PlacedComponent } from '@sitewatch/contract/site-map';
import { type CSSProperties, memo, type ReactNode } from 'react';
import type { ComponentKind, ComponentRecord } from '../../../editor/model/records.ts';
import { animationCss } from './animations.ts';
import { Glyph, SwitchGlyph } from './glyphs.tsx';
import './site-map.css';

/** What the live view knows of a component beyond its record: its device's items and alarm flag. */
export interface LiveState {
  alarm: boolean;
  device: string;
  items: PlacedComponent['items'];
}

/** Kinds drawn as a device: an icon of the library (normal or abnormal) or a built-in symbol. */
export const deviceKinds: ReadonlySet<ComponentKind> = new Set([
  'Cdefault',
  'component2',
  'component3',
  'component4',
  'component5',
  'Duanluqi',
  'IconElec1',
  'IconElec2',
  'IconElec3',
  'IconElec4',
  'IconElec5',
  'IconElec6',
  'Donghuan',
  'Dev_link',
  'Leak_cord',
]);

/** Kinds drawn in SVG as lines. */
export const lineKinds: ReadonlySet<ComponentKind> = new Set(['Line_x', 'Line_y', 'LineBroken', 'Line_link']);

/** The text a component shows: its kind-specific value when it is text, else its label. */
export const textOf = (record: ComponentRecord): string =>
  typeof record.propValue === 'string' && record.propValue !== '' ? record.propValue : record.label;

/** Switch settings of an ElectricSafe (001 §4): switch number and poles 1P–4P. */
export const switchOf = (record: ComponentRecord): { no: number; poles: number } => {
  const v = record.propValue;
  const rec = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  const no = Number(rec.switch ?? 1);
  const poles = Number(rec.poles ?? Math.round(record.width / 60));
  return { no: Number.isFinite(no) && no > 0 ? no : 1, poles: Math.min(4, Math.max(1, poles || 1)) };
};

/**
 * Whether a switch is on: from the live item whose point (cell) name carries the switch number
 * (e.g. `switch3`), any value but 0 being on; the saved `onOff` until a value is known.
 */
export const switchOn = (record: ComponentRecord, live: LiveState | undefined): boolean => {
  const { no } = switchOf(record);
  const item = live?.items.find((i) => Number(i.item_cell_name.match(/(\d+)\s*$/)?.[1]) === no);
  if (item && item.value !== null) return item.value !== 0;
  return record.style.onOff ?? false;
};

/** A state text as it is; a value with its display decimals and unit, as on the station page. */
export const itemText = (item: PlacedComponent['items'][number]) =>
  item.info !== '' ? item.info : formatValue(item.value, item);

/** The points of a broken line, in the component's own box: the saved ones or a step by default. */
export const brokenLinePoints = (record: ComponentRecord): { x: number; y: number }[] => {
  const v = record.propValue;
  const saved = Array.isArray(v)
    ? v.filter((p): p is { x: number; y: number } => typeof p === 'object' && p !== null)
    : [];
  if (saved.length >= 2) return saved;
  const { width: w, height: h } = record;
  return [
    { x: 0, y: 0 },
    { x: w / 2, y: 0 },
    { x: w / 2, y: h },
    { x: w, y: h },
  ];
};

const Line = ({ record }: { record: ComponentRecord }) => {
  const { width: w, height: h } = record;
  const strokeWidth = record.style.borderWidth || 2;
  const color = record.style.color || 'currentColor';
  const dash = record.style.borderStyle === 'dashed' ? '8 6' : undefined;
  const common = { stroke: color, strokeWidth, fill: 'none', strokeDasharray: dash } as const;
  let shape: ReactNode;
  if (record.kind === 'Line_y') shape = <line x1={w / 2} y1={0} x2={w / 2} y2={h} {...common} />;
  else if (record.kind === 'LineBroken')
    shape = (
      <polyline
        points={brokenLinePoints(record)
          .map((p) => `${p.x},${p.y}`)
          .join(' ')}
        {...common}
      />
    );
  else
    shape = (
      <line
        x1={0}
        y1={h / 2}
        x2={w}
        y2={h / 2}
        {...common}
        className={record.kind === 'Line_link' ? 'sm-flow' : undefined}
      />
    );
  return (
    <svg width={w} height={h} aria-hidden>
      {shape}
    </svg>
  );
};

/** Text and box style of a record (geometry is placed by the wrapper). */
const boxStyle = (record: ComponentRecord): CSSProperties => {
  const s = record.style;
  return {
    ...(s.color ? { color: s.color } : {}),
    ...(s.backgroundColor ? { backgroundColor: s.backgroundColor } : {}),
    ...(s.fontSize ? { fontSize: s.fontSize } : {}),
    ...(s.fontWeight ? { fontWeight: s.fontWeight } : {}),
    ...(s.lineHeight ? { lineHeight: s.lineHeight } : {}),
    ...(s.letterSpacing ? { letterSpacing: s.letterSpacing } : {}),
    ...(s.textAlign
      ? {
          justifyContent: s.textAlign === 'center' ? 'center' : s.textAlign === 'right' ? 'flex-end' : 'flex-start',
          textAlign: s.textAlign as CSSProperties['textAlign'],
        }
      : {}),
    ...(s.borderWidth
      ? {
          borderWidth: s.borderWidth,
          borderStyle: s.borderStyle || 'solid',
          borderColor: s.borderColor || 'currentColor',
        }
      : {}),
    ...(s.borderRadius ? { borderRadius: s.borderRadius } : {}),
  };
};

/** The inside of one component, by kind. */
const Body = ({
  record,
  live,
  siteName,
  siteNames,
}: {
  record: ComponentRecord;
  live: LiveState | undefined;
  siteName: string;
  siteNames: ReadonlyMap<number, string>;
}) => {
  const { kind } = record;
  if (kind === 'Picture') return record.normal_img ? <img src={record.normal_img} alt="" /> : null;
  if (lineKinds.has(kind)) return <Line record={record} />;
  if (kind === 'Group') return null;
  if (kind === 'Dot') return null;
  if (kind === 'VText') return <>{textOf(record)}</>;
  if (kind === 'VButton') return <>{textOf(record)}</>;
  if (kind === 'SiteButton') {
    const target = record.style.link_group_id;
    return <>{textOf(record) || (target ? (siteNames.get(target) ?? '') : '')}</>;
  }
  if (kind === 'SiteName') return <>{siteName}</>;
  if (kind === 'Items') {
    const items = live?.items.filter((i) => record.item_ids.includes(i.item_id)) ?? record.info?.items ?? [];
    return (
      <>
        {record.label && <div>{record.label}</div>}
        {items.map((i) => {
          const id = 'item_id' in i ? i.item_id : i.itemId;
          return (
            <div key={id} className={i.alarm ? 'sm-alarm' : undefined} data-item={id}>
              <span>{i.name}</span>
              <span>{'item_id' in i ? itemText(i) : (i.info ?? '')}</span>
            </div>
          );
        })}
      </>
    );
  }
  if (kind === 'KaiGuan1' || kind === 'KaiGuan2')
    return <SwitchGlyph on={switchOn(record, live)} variant={kind === 'KaiGuan1' ? 1 : 2} />;
  if (kind === 'ElectricSafe') {
    const { poles } = switchOf(record);
    const on = switchOn(record, live);
    return (
      <div className="sm-poles" data-on={on}>
        {Array.from({ length: poles }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: poles are positions
          <SwitchGlyph key={i} on={on} />
        ))}
      </div>
    );
  }
  // A device: its icon (abnormal while an item alarms), else the kind's own symbol; its name beneath.
  const alarm = live?.alarm ?? false;
  const icon = alarm && record.abnormal_img ? record.abnormal_img : record.normal_img || record.extend.iconUrl;
  const name = record.label || live?.device || record.info?.deviceName || '';
  return (
    <>
      <div className="sm-icon">{icon ? <img src={icon} alt="" /> : <Glyph kind={kind} />}</div>
      {name && <div className="sm-label">{name}</div>}
    </>
  );
};

const classOf = (record: ComponentRecord): string => {
  const { kind } = record;
  if (lineKinds.has(kind)) return 'sm-line';
  if (kind === 'VText' || kind === 'SiteName') return 'sm-text';
  if (kind === 'VButton' || kind === 'SiteButton') return 'sm-button';
  if (kind === 'Items') return 'sm-items';
  if (kind === 'Dot') return 'sm-dot';
  if (kind === 'Group') return 'sm-group';
  if (kind === 'Picture') return 'sm-picture';
  return 'sm-device';
};

/** Whether a click on the component does something in a live view. */
export const isClickable = (record: ComponentRecord): boolean =>
  record.link !== '' || record.events.length > 0 || (record.kind === 'SiteButton' && !!record.style.link_group_id);

export interface ComponentViewProps {
  record: ComponentRecord;
  live?: LiveState | undefined;
  /** Name of the site the picture belongs to (SiteName). */
  siteName: string;
  siteNames: ReadonlyMap<number, string>;
  /** Whether components answer clicks (live views); the editor handles pointers itself. */
  interactive: boolean;
  /** Whether to play the component's animations (live views and preview). */
  animate: boolean;
  onActivate?: ((record: ComponentRecord) => void) | undefined;
  /** The layer the component is drawn on (groups lift their members above their siblings). */
  layer: number;
  /** Faded out by the functional filter. */
  dim?: boolean;
}

/**
 * One component, absolutely placed on the canvas: DOM for devices, texts and buttons, SVG for
 * lines. Memoised on its record and live state, so a change redraws only what changed; the editor
 * moves the element directly during a drag (by `data-id`) without rendering it again.
 */
export const ComponentView = memo(function ComponentView({
  record,
  live,
  siteName,
  siteNames,
  interactive,
  animate,
  onActivate,
  layer,
  dim = false,
}: ComponentViewProps) {
  const clickable = interactive && isClickable(record);
  const alarm = live?.alarm ?? false;
  const style: CSSProperties = {
    left: record.left,
    top: record.top,
    width: record.width,
    height: record.height,
    zIndex: layer,
    ...(record.rotate ? { transform: `rotate(${record.rotate}deg)` } : {}),
    ...(record.style.opacity !== undefined ? { opacity: record.style.opacity } : {}),
    ...(lineKinds.has(record.kind) ? {} : boxStyle(record)),
  };
  const animation = animate ? animationCss(record.animations) : undefined;
  const body = <Body record={record} live={live} siteName={siteName} siteNames={siteNames} />;
  return (
    <div
      className={`sm-c ${classOf(record)}${clickable ? ' sm-click' : ''}${dim ? ' sm-dim' : ''}`}
      style={style}
      data-id={record.id}
      data-kind={record.kind}
      data-alarm={alarm}
      title={record.dialog?.content || undefined}
      {...(clickable
        ? {
            role: 'button',
            tabIndex: 0,
            'aria-label': textOf(record) || live?.device || record.kind,
            onClick: () => onActivate?.(record),
            onKeyDown: (e: React.KeyboardEvent) => {
              if (e.key === 'Enter') onActivate?.(record);
            },
          }
        : {})}
    >
      {animation ? (
        <div className="sm-anim" style={{ animation }}>
          {body}
        </div>
      ) : (
        body
      )}
    </div>
  );
});
