import {
  type MeterPoints,
  type MeterRole,
  meterRoles,
  type QualityFigures,
  type QualityIssue,
  type SafetyLimits,
} from '@sitewatch/contract/electrical-safety';

/**
 * The quality formulas of the energy module (modules/energy/quality.ts), handed in by the
 * composition root (areas.ts) so that there is one implementation of each definition.
 */
export interface QualityFormulas {
  unbalance(a: number, b: number, c: number): number | null;
  vufFromLineVoltages(ab: number, bc: number, ca: number): number | null;
  powerFactor(p: number, s: number): number | null;
  powerFactorPQ(p: number, q: number): number | null;
  frequencyCheck(hz: number, nominal?: number, band?: number): { deviation: number; ok: boolean };
}

/**
 * Item cell names read as meter roles when a device has no stored mapping (the templates' names:
 * Ua, Ia, P, Q, PF, F, UTHD …; case does not matter). Anything else needs a stored mapping.
 */
const cellRoles: Record<string, MeterRole> = {
  ua: 'ua',
  ub: 'ub',
  uc: 'uc',
  uab: 'uab',
  ubc: 'ubc',
  uca: 'uca',
  ia: 'ia',
  ib: 'ib',
  ic: 'ic',
  p: 'p',
  q: 'q',
  s: 's',
  pf: 'pf',
  f: 'f',
  freq: 'f',
  uthd: 'thd_u',
  thdu: 'thd_u',
  ithd: 'thd_i',
  thdi: 'thd_i',
};
/** 001 §4: a switch's state is the item whose cell name carries the switch number (SW1, SW2 …). */
const switchCell = /^sw(\d{1,3})$/i;

export interface ItemLike {
  id: number;
  name: string;
  item_cell_name: string;
}

export const emptyPoints = (): MeterPoints =>
  Object.fromEntries(meterRoles.map((r) => [r, null])) as unknown as MeterPoints;

/** The mapping read from cell names: roles by the table above, switches SW<n> in number order. */
export const autoMapping = (items: ItemLike[]) => {
  const points = emptyPoints();
  for (const item of items) {
    const role = cellRoles[item.item_cell_name.trim().toLowerCase()];
    if (role && points[role] === null) points[role] = item.id;
  }
  const found = items
    .map((i) => ({ i, m: switchCell.exec(i.item_cell_name.trim()) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]));
  // Templates name every switch item alike ("switch state"): the cell name tells them apart.
  const alike = new Set(found.map(({ i }) => i.name)).size < found.length;
  const switches = found.map(({ i }) => ({ item_id: i.id, name: alike ? `${i.name} ${i.item_cell_name.trim()}` : '' }));
  return { points, switches };
};

/** Whether a mapping names any role (a device whose items mean nothing electrical is left out). */
export const hasPoints = (points: MeterPoints) => meterRoles.some((r) => points[r] !== null);

type Readings = Partial<Record<MeterRole, number | null>>;

const num = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
const all3 = (a: number | null | undefined, b: number | null | undefined, c: number | null | undefined) =>
  num(a) && num(b) && num(c) ? ([a, b, c] as const) : null;
const round = (v: number | null, digits = 3) => (v === null ? null : Number(v.toFixed(digits)));

/**
 * The figures of one meter from its readings (latest values, or a bucket's means). Unbalance is
 * NEMA's (deviation from the mean); the IEC VUF needs the line voltages. The PF is the meter's own
 * when it gives one, else P/S, else from P and Q (signed by Q).
 */
export const figuresOf = (r: Readings, limits: SafetyLimits, q: QualityFormulas): QualityFigures => {
  const u = all3(r.ua, r.ub, r.uc);
  const i = all3(r.ia, r.ib, r.ic);
  const line = all3(r.uab, r.ubc, r.uca);
  let pf: number | null = null;
  let pfSource: QualityFigures['pf_source'] = null;
  if (num(r.pf)) {
    pf = r.pf;
    pfSource = 'item';
  } else if (num(r.p) && num(r.s)) {
    pf = q.powerFactor(r.p, r.s);
    pfSource = pf === null ? null : 'p_s';
  } else if (num(r.p) && num(r.q)) {
    pf = q.powerFactorPQ(r.p, r.q);
    pfSource = pf === null ? null : 'p_q';
  }
  const freq = num(r.f) ? r.f : null;
  const phaseVoltages = u ?? (line ? (line.map((v) => v / Math.sqrt(3)) as unknown as typeof line) : null);
  const deviation = phaseVoltages
    ? Math.max(...phaseVoltages.map((v) => Math.abs(v - limits.voltage_nominal))) / limits.voltage_nominal
    : null;
  return {
    voltage_unbalance: round(u ? q.unbalance(...u) : line ? q.unbalance(...line) : null),
    current_unbalance: round(i ? q.unbalance(...i) : null),
    vuf: round(line ? q.vufFromLineVoltages(...line) : null),
    pf: round(pf),
    pf_source: pfSource,
    thd_u: num(r.thd_u) ? round(r.thd_u) : null,
    thd_i: num(r.thd_i) ? round(r.thd_i) : null,
    frequency: freq,
    frequency_deviation: freq === null ? null : round(q.frequencyCheck(freq, limits.frequency_nominal).deviation),
    voltage_deviation: deviation === null ? null : round(deviation * 100),
  };
};

/** Each figure beyond its limit, with the value and the limit (for the overview's list). */
export const issuesOf = (
  f: QualityFigures,
  limits: SafetyLimits,
): Array<{ issue: QualityIssue; value: number; limit: number }> => {
  const out: Array<{ issue: QualityIssue; value: number; limit: number }> = [];
  const over = (issue: QualityIssue, value: number | null, limit: number) => {
    if (value !== null && value > limit) out.push({ issue, value, limit });
  };
  over('voltage', f.voltage_deviation, limits.voltage_deviation_max);
  over('voltage_unbalance', f.vuf ?? f.voltage_unbalance, limits.voltage_unbalance_max);
  over('current_unbalance', f.current_unbalance, limits.current_unbalance_max);
  over('thd_u', f.thd_u, limits.thd_u_max);
  over('thd_i', f.thd_i, limits.thd_i_max);
  if (f.pf !== null && Math.abs(f.pf) < limits.pf_min) out.push({ issue: 'pf', value: f.pf, limit: limits.pf_min });
  if (f.frequency_deviation !== null && Math.abs(f.frequency_deviation) > limits.frequency_band + 1e-9)
    out.push({ issue: 'frequency', value: f.frequency!, limit: limits.frequency_band });
  return out;
};

/** A switch item's value as a state: 1 on (closed), 0 off (open), anything else unknown. */
export const switchStateOf = (value: number | null, itemState: number): 'on' | 'off' | 'unknown' => {
  // 4: the item is unknown (its value is stale or unread).
  if (value === null || itemState === 4) return 'unknown';
  if (value === 1) return 'on';
  if (value === 0) return 'off';
  return 'unknown';
};
