import type { ReactElement } from 'react';
import type { ComponentKind } from '../../../editor/model/records.ts';

/**
 * Built-in drawings of the kinds that have a symbol of their own (001 §3: transformer, triangle,
 * lightning arrester, current transformer, reactor, capacitor compensator, breaker, switches), used
 * when no icon of the library is chosen. Inline SVG with a 0 0 100 100 box, stroked in
 * `currentColor` so that an alarm can colour them.
 */
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 4, vectorEffect: 'non-scaling-stroke' } as const;

const drawings: Partial<Record<ComponentKind, ReactElement>> = {
  // Transformer: two overlapping windings.
  IconElec1: (
    <>
      <circle cx="50" cy="36" r="22" {...stroke} />
      <circle cx="50" cy="64" r="22" {...stroke} />
    </>
  ),
  // Triangle (delta winding).
  IconElec2: (
    <>
      <circle cx="50" cy="50" r="40" {...stroke} />
      <polygon points="50,22 74,64 26,64" {...stroke} />
    </>
  ),
  // Lightning arrester: a box with an arrow to earth.
  IconElec3: (
    <>
      <line x1="50" y1="4" x2="50" y2="24" {...stroke} />
      <rect x="34" y="24" width="32" height="46" {...stroke} />
      <polyline points="50,32 50,58 44,50 56,50 50,58" {...stroke} />
      <line x1="50" y1="70" x2="50" y2="84" {...stroke} />
      <line x1="34" y1="84" x2="66" y2="84" {...stroke} />
      <line x1="40" y1="91" x2="60" y2="91" {...stroke} />
      <line x1="46" y1="97" x2="54" y2="97" {...stroke} />
    </>
  ),
  // Current transformer: a line through a ring.
  IconElec4: (
    <>
      <line x1="50" y1="4" x2="50" y2="96" {...stroke} />
      <circle cx="50" cy="50" r="18" {...stroke} />
    </>
  ),
  // Reactor: a coil.
  IconElec5: (
    <>
      <line x1="50" y1="4" x2="50" y2="30" {...stroke} />
      <path d="M50 30 A20 20 0 1 1 30 50 L50 50 L50 96" {...stroke} />
    </>
  ),
  // Capacitor compensator: two plates.
  IconElec6: (
    <>
      <line x1="50" y1="4" x2="50" y2="42" {...stroke} />
      <line x1="24" y1="42" x2="76" y2="42" {...stroke} />
      <line x1="24" y1="58" x2="76" y2="58" {...stroke} />
      <line x1="50" y1="58" x2="50" y2="96" {...stroke} />
    </>
  ),
  // Circuit breaker: a square on the line.
  Duanluqi: (
    <>
      <line x1="50" y1="4" x2="50" y2="30" {...stroke} />
      <rect x="32" y="30" width="36" height="40" {...stroke} />
      <line x1="50" y1="70" x2="50" y2="96" {...stroke} />
    </>
  ),
  // Environment loop (动环): a room with sensors.
  Donghuan: (
    <>
      <rect x="10" y="20" width="80" height="64" rx="6" {...stroke} />
      <circle cx="32" cy="44" r="8" {...stroke} />
      <circle cx="68" cy="44" r="8" {...stroke} />
      <line x1="22" y1="68" x2="78" y2="68" {...stroke} />
    </>
  ),
  // Leak cord: a wavy cable.
  Leak_cord: <path d="M6 50 Q19 30 32 50 T58 50 T84 50 T96 50" {...stroke} />,
  // Topology device: a server box.
  Dev_link: (
    <>
      <rect x="16" y="14" width="68" height="72" rx="6" {...stroke} />
      <line x1="16" y1="38" x2="84" y2="38" {...stroke} />
      <line x1="16" y1="62" x2="84" y2="62" {...stroke} />
    </>
  ),
};

/** A generic device: a rack with a status lamp. */
const device = (
  <>
    <rect x="22" y="8" width="56" height="84" rx="6" {...stroke} />
    <line x1="32" y1="28" x2="68" y2="28" {...stroke} />
    <line x1="32" y1="44" x2="68" y2="44" {...stroke} />
    <circle cx="50" cy="72" r="7" fill="currentColor" />
  </>
);

export const Glyph = ({ kind }: { kind: ComponentKind }) => (
  <svg viewBox="0 0 100 100" width="100%" height="100%" preserveAspectRatio="xMidYMid meet" aria-hidden>
    {drawings[kind] ?? device}
  </svg>
);

/** A knife switch drawn open or closed (KaiGuan1/2, ElectricSafe poles). */
export const SwitchGlyph = ({ on, variant = 1 }: { on: boolean; variant?: 1 | 2 }) => (
  <svg viewBox="0 0 100 100" width="100%" height="100%" preserveAspectRatio="xMidYMid meet" aria-hidden>
    <line x1="50" y1="4" x2="50" y2="30" {...stroke} />
    <circle cx="50" cy="30" r="4" fill="currentColor" />
    {on ? (
      <line x1="50" y1="30" x2="50" y2="70" {...stroke} />
    ) : (
      <line x1="50" y1="30" x2={variant === 1 ? 76 : 24} y2="64" {...stroke} />
    )}
    {variant === 2 && <line x1="40" y1="70" x2="60" y2="70" {...stroke} />}
    <circle cx="50" cy="70" r="4" fill="currentColor" />
    <line x1="50" y1="70" x2="50" y2="96" {...stroke} />
  </svg>
);
