import type { TariffInput, TariffMode } from '../energy.ts';

/**
 * The tariff rules the schema cannot see alone (002 §5.1, docs/energy.md "Tariffs"): those of the
 * billing mode, gradients following each other from 0 with an open last one, slots of each season
 * covering the day exactly once. Pure; the web's gradient and slot editors show them beside the
 * fields before a request is sent, and the server refuses a tariff that breaks them.
 */

/** A broken rule: the request path it sits at ('gradients.1.end', 'slots') and its locale key. */
export interface TariffProblem {
  path: string;
  key: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The seasons a tariff's gradients and slots must name: summer and non-summer when it has summer months. */
export const tariffSeasons = (input: Pick<TariffInput, 'summer_months'>) =>
  input.summer_months.length > 0 ? (['summer', 'non_summer'] as const) : (['all'] as const);

/**
 * @example tariffProblems('stair', { name: 'a', summer_months: [], gradients: [], slots: [] })
 * // [{ path: 'gradients', key: 'energy.validation.gradientRequired' }]
 */
export const tariffProblems = (mode: TariffMode, input: TariffInput): TariffProblem[] => {
  const out: TariffProblem[] = [];
  const k = (key: string) => `energy.validation.${key}`;
  const wanted: readonly string[] = tariffSeasons(input);
  input.gradients.forEach((g, i) => {
    if (g.end !== null && g.end < g.start) out.push({ path: `gradients.${i}.end`, key: k('endBelowStart') });
    if (!wanted.includes(g.season)) out.push({ path: `gradients.${i}.season`, key: k('season') });
  });
  input.slots.forEach((s, i) => {
    if (!wanted.includes(s.season)) out.push({ path: `slots.${i}.season`, key: k('season') });
  });
  if (out.length > 0) return out;
  if (mode !== 'time_share') {
    for (const season of wanted) {
      const tiers = input.gradients.filter((g) => g.season === season).sort((a, b) => a.start - b.start);
      if (tiers.length === 0) {
        out.push({ path: 'gradients', key: k('gradientRequired') });
        break;
      }
      // Tiers follow each other from 0, the last one open-ended: every kWh has one price.
      let expect = 0;
      tiers.forEach((g, i) => {
        if (g.start !== expect) out.push({ path: 'gradients', key: k('gradientsContiguous') });
        if (g.end === null && i < tiers.length - 1) out.push({ path: 'gradients', key: k('gradientsContiguous') });
        expect = g.end ?? Number.POSITIVE_INFINITY;
      });
      if (tiers.at(-1)?.end !== null) out.push({ path: 'gradients', key: k('gradientsOpenEnd') });
      if (out.length > 0) break;
    }
  } else if (input.gradients.length > 0) out.push({ path: 'gradients', key: k('noGradients') });
  if (mode !== 'stair') {
    for (const season of wanted) {
      const minutes = new Array<number>(1440).fill(0);
      for (const s of input.slots.filter((x) => x.season === season)) {
        const a = minutesOf(s.start);
        let b = minutesOf(s.end);
        if (b <= a) b += 1440;
        for (let m = a; m < b; m++) minutes[m % 1440] = (minutes[m % 1440] ?? 0) + 1;
      }
      if (minutes.some((n) => n !== 1)) {
        out.push({ path: 'slots', key: k('slotsCoverDay') });
        break;
      }
    }
  } else if (input.slots.length > 0) out.push({ path: 'slots', key: k('noSlots') });
  return out;
};
