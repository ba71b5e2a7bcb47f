import { z } from 'zod';
import { epochSeconds, pageOf, pageQuery, tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Inspection (issue 16; 002 §2.1 /polling_main, /polling_record, /polling_main_detail, §3 inspection
 * report, §7.1 setting/intelligent_inspection, patrol_settings, inspection_report; 000 §2.6 last
 * inspection and inspect-now). docs/inspection-duty.md.
 */
const tags = ['inspection'];
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const siteIds = z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(500);

/** The spec's repeat options (002 §4), as the scheduler's rules. */
export const repeatRule = z.enum([
  'once',
  'hours4',
  'hours8',
  'hours12',
  'daily',
  'days2',
  'days3',
  'days4',
  'days5',
  'days6',
  'days7',
  'days15',
  'days30',
  'weekly',
  'monthly',
  'months3',
  'months6',
  'yearly',
]);
export type RepeatRuleName = z.infer<typeof repeatRule>;

/** Report states (002 §4 work-order and inspection states): waiting to review, passed, failed. */
export const reportStatus = { waitingReview: 0, passed: 1, failed: 2 } as const;

/** One item as the inspection saw it: the live value at that moment and the inspector's mark. */
export const inspectedItem = z.object({
  item_id: z.number().int(),
  item_name: z.string(),
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  value: z.number().nullable().describe('Value at the moment of the inspection (null: none).'),
  unit: z.string(),
  state: z.number().int().describe('Item state at that moment (1 normal).'),
  abnormal: z.boolean().describe('Whether the item was found abnormal (its state, or the inspector’s mark).'),
  note: z.string(),
});
export type InspectedItem = z.infer<typeof inspectedItem>;

export const inspectionReport = z.object({
  id: z.number().int(),
  kind: z.enum(['manual', 'auto']),
  plan_id: z.number().int().nullable(),
  inspector: z.string().describe('Who inspected (the plan’s name for an automatic inspection).'),
  reviewer: z.string().describe("Who reviewed ('' until reviewed)."),
  status: z.number().int().describe('0 waiting to review, 1 passed, 2 failed.'),
  device_group_ids: z.array(z.number().int()),
  summary: z.string(),
  review_comment: z.string(),
  items: z.number().int().describe('Items checked.'),
  abnormal: z.number().int().describe('Items found abnormal.'),
  create_time: epochSeconds,
  reviewed_at: epochSeconds.nullable(),
});
export type InspectionReport = z.infer<typeof inspectionReport>;
export const inspectionReportDetail = inspectionReport.extend({ content: z.array(inspectedItem) });

export const reportQuery = pageQuery.extend({
  status: z.coerce.number().int().min(0).max(2).optional().describe('Only reports of this status.'),
  kind: z.enum(['manual', 'auto']).optional(),
});

export const snapshotQuery = z.object({
  device_group_ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,499}$/)
    .describe('Comma-separated site ids.'),
  t: tParam,
});

export const manualInput = z.strictObject({
  device_group_ids: siteIds.describe('Sites walked (their sub-sites included).'),
  marks: z
    .array(
      z.strictObject({
        item_id: z.number().int().min(1).max(2_147_483_647),
        abnormal: z.boolean(),
        note: z.string().max(500).default(''),
      }),
    )
    .max(5000)
    .default([])
    .describe('The inspector’s findings per item; items not named keep their live state.'),
  summary: z.string().trim().min(1).max(2000),
  t: tParam,
});

export const reviewInput = z.strictObject({
  result: z.enum(['passed', 'failed']),
  comment: z.string().max(1000).default(''),
  t: tParam,
});

export const planInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  device_group_ids: siteIds,
  rule: repeatRule,
  start_time: epochSeconds.max(4_102_444_800).describe('First run (epoch seconds); later runs follow the rule.'),
  enable: z.boolean().default(true),
  t: tParam,
});
export const inspectionPlan = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_ids: z.array(z.number().int()),
  rule: repeatRule,
  start_time: epochSeconds,
  enable: z.boolean(),
  next_run: epochSeconds.nullable(),
  last_run: epochSeconds.nullable(),
});
export type InspectionPlan = z.infer<typeof inspectionPlan>;

/** patrol_settings: whether manual and intelligent inspection are open (000 §4: modules depend on their flags). */
export const patrolSettings = z.strictObject({
  enable: z.boolean().default(true),
  intelligent_enable: z.boolean().default(true),
});
/** inspection_report: how reports are kept and reviewed. */
export const inspectionReportSettings = z.strictObject({
  /** An automatic report with nothing abnormal is passed without review. */
  auto_pass_normal: z.boolean().default(false),
  keep_days: z.number().int().min(1).max(3650).default(365),
});

export const lastInspection = z.object({
  report: inspectionReport.nullable().describe('The newest report (null: none yet).'),
  enable: z.boolean().describe('Whether inspection is open (patrol_settings.enable).'),
});

const idParams = z.object({ id });
export const inspectionRoutes = {
  last: defineRoute({
    method: 'GET',
    path: 'inspection/last',
    summary: 'The newest inspection report (the dashboard’s last inspection)',
    tags,
    query: z.object({ t: tParam }),
    response: lastInspection,
  }),
  snapshot: defineRoute({
    method: 'GET',
    path: 'inspection/snapshot',
    summary: 'Live values of every item of the chosen sites (what a manual inspection will capture)',
    tags,
    query: snapshotQuery,
    response: z.array(inspectedItem),
  }),
  manual: defineRoute({
    method: 'POST',
    path: 'inspection/manual',
    summary: 'Submit a manual inspection: the live values are captured now',
    tags,
    body: manualInput,
    response: inspectionReport,
  }),
  reports: defineRoute({
    method: 'GET',
    path: 'inspection/report',
    summary: 'Inspection reports (status 0: unconfirmed)',
    tags,
    query: reportQuery,
    response: pageOf(inspectionReport),
  }),
  report: defineRoute({
    method: 'GET',
    path: 'inspection/report/:id',
    summary: 'One report with every item checked',
    tags,
    params: idParams,
    query: z.object({ t: tParam }),
    response: inspectionReportDetail,
  }),
  review: defineRoute({
    method: 'POST',
    path: 'inspection/report/:id/review',
    summary: 'Review an unconfirmed report: passed or failed',
    tags,
    params: idParams,
    body: reviewInput,
    response: inspectionReport,
  }),
  exportReport: defineRoute({
    method: 'GET',
    path: 'inspection/report/:id/export',
    summary: 'A report as an xlsx workbook or a PDF document',
    tags,
    params: idParams,
    query: z.object({ format: z.enum(['xlsx', 'pdf']).default('xlsx').describe('File format.'), t: tParam }),
    response: z.null(),
  }),
  plans: defineRoute({
    method: 'GET',
    path: 'setting/intelligent_inspection',
    summary: 'Intelligent (automatic) inspection plans',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(inspectionPlan),
  }),
  plan: defineRoute({
    method: 'GET',
    path: 'setting/intelligent_inspection/:id',
    summary: 'One plan',
    tags,
    params: idParams,
    query: z.object({ t: tParam }),
    response: inspectionPlan,
  }),
  addPlan: defineRoute({
    method: 'POST',
    path: 'setting/intelligent_inspection',
    summary: 'Add a plan (scheduled with a repeat option)',
    tags,
    body: planInput,
    response: inspectionPlan,
  }),
  updatePlan: defineRoute({
    method: 'PUT',
    path: 'setting/intelligent_inspection/:id',
    summary: 'Change a plan (its schedule restarts from the new start time)',
    tags,
    params: idParams,
    body: planInput,
    response: inspectionPlan,
  }),
  deletePlan: defineRoute({
    method: 'DELETE',
    path: 'setting/intelligent_inspection/:id',
    summary: 'Delete a plan and its schedule',
    tags,
    params: idParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  getPatrol: defineRoute({
    method: 'GET',
    path: 'setting/patrol_settings',
    summary: 'Inspection switches',
    tags,
    query: z.object({ t: tParam }),
    response: patrolSettings,
  }),
  setPatrol: defineRoute({
    method: 'PUT',
    path: 'setting/patrol_settings',
    summary: 'Save the inspection switches',
    tags,
    body: patrolSettings.extend({ t: tParam }),
    response: patrolSettings,
  }),
  getReportSettings: defineRoute({
    method: 'GET',
    path: 'setting/inspection_report',
    summary: 'Report settings',
    tags,
    query: z.object({ t: tParam }),
    response: inspectionReportSettings,
  }),
  setReportSettings: defineRoute({
    method: 'PUT',
    path: 'setting/inspection_report',
    summary: 'Save the report settings',
    tags,
    body: inspectionReportSettings.extend({ t: tParam }),
    response: inspectionReportSettings,
  }),
};
