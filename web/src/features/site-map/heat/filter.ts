import type { ComponentRecord } from '../../../editor/model/records.ts';

/** The functional filter of 001 §4: standard or temperature-cloud mode, and the kinds of device shown. */
export const filterKinds = ['th', 'ups', 'meter', 'ac', 'video', 'door'] as const;
export type FilterKind = (typeof filterKinds)[number];

export interface HeatFilter {
  mode: 'standard' | 'cloud';
  kinds: FilterKind[];
}

export const defaultFilter: HeatFilter = { mode: 'cloud', kinds: [...filterKinds] };

/** Device category codes (migration 0003) behind each filter entry; video is a bound camera. */
const categoryOf: Record<Exclude<FilterKind, 'video'>, string> = {
  th: 'temp_hum',
  ups: 'ups',
  meter: 'power_meter',
  ac: 'air',
  door: 'door',
};

/**
 * Whether the filter dims a component: a device of a filtered category that is not ticked, or a
 * video binding when 视频 is not ticked. Components of other categories, and those without a
 * device, are never dimmed (the filter names what to pick out, not what exists).
 */
export const isDimmed = (record: ComponentRecord, category: string | undefined, filter: HeatFilter): boolean => {
  if (record.video_id && !filter.kinds.includes('video')) return true;
  if (!category) return false;
  const kind = (Object.keys(categoryOf) as Exclude<FilterKind, 'video'>[]).find((k) => categoryOf[k] === category);
  return kind !== undefined && !filter.kinds.includes(kind);
};
