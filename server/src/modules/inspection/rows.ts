import type { InspectedItem, InspectionReport } from '@sitewatch/contract/inspection';
import { readIdList } from '../../db/json.ts';
import type { InspectionRepository } from './repository.ts';

/** Stored reports as the caller may see them, and whether a report or plan is theirs to see at all. */

/** The caller's sites (null: all). */
export type Allowed = number[] | null;
type Row = NonNullable<Awaited<ReturnType<InspectionRepository['report']>>>;

export const granted = (allowed: Allowed, siteId: number) => allowed === null || allowed.includes(siteId);

/** An automatic report's summary, language-neutral: abnormal / checked, then the abnormal items. */
export const autoSummary = (content: InspectedItem[]) => {
  const abnormal = content.filter((i) => i.abnormal);
  const named = abnormal
    .slice(0, 20)
    .map((i) => `${i.device_name}/${i.item_name}`)
    .join(', ');
  return `${abnormal.length}/${content.length}${abnormal.length === 0 ? '' : `: ${named}`}`;
};

/**
 * A report as the caller may see it (docs/inspection-duty.md, "Rows of several sites"): the items of
 * granted sites only, the counts of those items, the named sites that are granted; an automatic
 * report's summary is made again from those items (it names abnormal items).
 */
export const grantedReport = (r: Row, allowed: Allowed): InspectionReport & { content: InspectedItem[] } => {
  const all = JSON.parse(r.content) as InspectedItem[];
  const content = allowed === null ? all : all.filter((i) => granted(allowed, i.device_group_id));
  const whole = content.length === all.length;
  return {
    id: r.id,
    kind: r.kind === 'auto' ? 'auto' : 'manual',
    plan_id: r.plan_id,
    inspector: r.inspector,
    reviewer: r.reviewer,
    status: r.status,
    device_group_ids: readIdList(r.device_group_ids).filter((id) => granted(allowed, id)),
    summary: whole || r.kind !== 'auto' ? r.summary : autoSummary(content),
    review_comment: r.review_comment,
    items: whole ? r.items : content.length,
    abnormal: whole ? r.abnormal : content.filter((i) => i.abnormal).length,
    create_time: Number(r.created_at),
    reviewed_at: r.reviewed_at === null ? null : Number(r.reviewed_at),
    content,
  };
};
/** Whether any site a report or plan names is granted (otherwise it does not exist for the caller). */
export const touches = (siteIds: string, allowed: Allowed) => readIdList(siteIds).some((id) => granted(allowed, id));
export const toReport = (r: Row, allowed: Allowed): InspectionReport => {
  const { content: _, ...report } = grantedReport(r, allowed);
  return report;
};
