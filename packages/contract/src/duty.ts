import { z } from 'zod';
import { epochSeconds, tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Duty (issue 16; 002 §2.1 /duty_manage/*, §3 duty, §4 shift handover, §7.7 on_duty_*): the time
 * schedule (shifts), the duty table (rotations over weeks plus one-off overrides, materialised as
 * concrete shifts), the memorandum and the handover. Shifts belong to a site or to every site, memos
 * and handovers to a site or to their people; each caller sees and changes only their part
 * (docs/inspection-duty.md, "Duty by site").
 */
const tags = ['duty'];
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id });
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'duty.badTime');
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'duty.badDate')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'duty.badDate',
  );
const contactId = z.number().int().min(1).max(2_147_483_647);
/** A site of the caller's grant, or null (see each input). */
const siteId = z.number().int().min(1).max(2_147_483_647).nullable().default(null);

export const shiftInput = z.strictObject({
  name: z.string().trim().min(1).max(50),
  start: hhmm.describe('Start, HH:MM.'),
  end: hhmm.describe('End, HH:MM (not after the start: the next day).'),
  device_group_id: siteId.describe(
    'The site whose shift it is; null: every site (only for a user granted every site).',
  ),
  t: tParam,
});
export const dutyShift = z.object({
  id: z.number().int(),
  name: z.string(),
  start: z.string(),
  end: z.string(),
  device_group_id: z.number().int().nullable().describe('The site whose shift it is; null: every site.'),
  editable: z.boolean().describe('Whether the caller may change the shift and arrange its duty rows.'),
});
export type DutyShift = z.infer<typeof dutyShift>;

export const tableQuery = z.object({
  from: date.describe('First day (YYYY-MM-DD).'),
  to: date.describe('Last day (YYYY-MM-DD).'),
  t: tParam,
});
export const dutyEntry = z.object({
  id: z.number().int(),
  date: z.string(),
  shift_id: z.number().int(),
  shift_name: z.string(),
  contact_id: z.number().int(),
  contact_name: z.string(),
  override: z.boolean().describe('A one-off override (wins over the rotation for its day and shift).'),
  start_at: epochSeconds,
  end_at: epochSeconds,
});
export type DutyEntry = z.infer<typeof dutyEntry>;
export const overrideInput = z.strictObject({
  date,
  shift_id: contactId,
  contact_ids: z.array(contactId).min(1).max(50),
  t: tParam,
});
export const rotationInput = z.strictObject({
  shift_id: contactId,
  contact_ids: z.array(contactId).min(1).max(50).describe('Members in rotation order.'),
  start_date: date,
  weeks: z.number().int().min(1).max(52).describe('Weeks each member stays on before the next takes over.'),
  horizon_weeks: z.number().int().min(1).max(104).default(8).describe('Weeks of shifts written ahead.'),
  t: tParam,
});

export const memoInput = z.strictObject({
  date,
  content: z.string().trim().min(1).max(5000),
  device_group_id: siteId.describe('The site the memo is about (its users read it); null: the author’s own note.'),
  t: tParam,
});
export const dutyMemo = z.object({
  id: z.number().int(),
  date: z.string(),
  content: z.string(),
  user_name: z.string(),
  create_time: epochSeconds,
  device_group_id: z.number().int().nullable(),
  editable: z
    .boolean()
    .describe(
      'Whether the caller may change or delete it (its author; for a site’s memo also a user granted every site).',
    ),
});

export const handoverInput = z.strictObject({
  successor_id: contactId.describe('The user who takes over.'),
  events: z.string().trim().min(1).max(5000).describe('What the successor must know.'),
  device_group_id: siteId.describe('The site handed over (its users read the record); null: only the two people.'),
  t: tParam,
});
export const handover = z.object({
  id: z.number().int(),
  shifter: z.string(),
  shifter_id: z.number().int(),
  successor: z.string(),
  successor_id: z.number().int(),
  events: z.string(),
  status: z.number().int().describe('0 waiting for the successor, 1 confirmed.'),
  handover_time: epochSeconds,
  confirmed_at: epochSeconds.nullable(),
  device_group_id: z.number().int().nullable(),
});
export type Handover = z.infer<typeof handover>;

export const dutySettings = z.strictObject({
  handover_enable: z.boolean().default(false).describe('Alarm notices follow the duty table (002 §4).'),
});

export const dutyRoutes = {
  shifts: defineRoute({
    method: 'GET',
    path: 'on_duty_time_schedule',
    summary: 'The time schedule (shifts)',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(dutyShift),
  }),
  addShift: defineRoute({
    method: 'POST',
    path: 'on_duty_time_schedule',
    summary: 'Add a shift',
    tags,
    body: shiftInput,
    response: dutyShift,
  }),
  updateShift: defineRoute({
    method: 'PUT',
    path: 'on_duty_time_schedule/:id',
    summary: 'Change a shift (its future duty rows move with it)',
    tags,
    params: idParams,
    body: shiftInput,
    response: dutyShift,
  }),
  deleteShift: defineRoute({
    method: 'DELETE',
    path: 'on_duty_time_schedule/:id',
    summary: 'Delete a shift with its rotations and duty rows',
    tags,
    params: idParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  table: defineRoute({
    method: 'GET',
    path: 'on_duty_table',
    summary: 'The duty table between two days (overrides win over rotations)',
    tags,
    query: tableQuery,
    response: z.array(dutyEntry),
  }),
  addOverride: defineRoute({
    method: 'POST',
    path: 'on_duty_table',
    summary: 'A one-off override: these contacts on this shift of this day',
    tags,
    body: overrideInput,
    response: z.array(dutyEntry),
  }),
  deleteEntry: defineRoute({
    method: 'DELETE',
    path: 'on_duty_table/:id',
    summary: 'Delete one duty row',
    tags,
    params: idParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  rotate: defineRoute({
    method: 'POST',
    path: 'on_duty_table/rotation',
    summary:
      'Generate the duty rows of a rotation over weeks (replaces the rotation rows of that shift from the start day)',
    tags,
    body: rotationInput,
    response: z.object({ created: z.number().int() }),
  }),
  onDuty: defineRoute({
    method: 'GET',
    path: 'on_duty_table/now',
    summary: 'Who is on duty now (from the stored shifts)',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(dutyEntry),
  }),
  ical: defineRoute({
    method: 'GET',
    path: 'on_duty_table/ical',
    summary: "The caller's own shifts as an iCalendar file (contacts with the user's e-mail)",
    tags,
    query: z.object({ t: tParam }),
    response: z.null(),
  }),
  memos: defineRoute({
    method: 'GET',
    path: 'on_duty_memorandum',
    summary: 'Memorandum entries between two days',
    tags,
    query: tableQuery,
    response: z.array(dutyMemo),
  }),
  addMemo: defineRoute({
    method: 'POST',
    path: 'on_duty_memorandum',
    summary: 'Add a memorandum entry',
    tags,
    body: memoInput,
    response: dutyMemo,
  }),
  updateMemo: defineRoute({
    method: 'PUT',
    path: 'on_duty_memorandum/:id',
    summary: 'Change a memorandum entry',
    tags,
    params: idParams,
    body: memoInput,
    response: dutyMemo,
  }),
  deleteMemo: defineRoute({
    method: 'DELETE',
    path: 'on_duty_memorandum/:id',
    summary: 'Delete a memorandum entry',
    tags,
    params: idParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  handovers: defineRoute({
    method: 'GET',
    path: 'on_duty_handover',
    summary: 'Shift handover records, newest first',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(handover),
  }),
  addHandover: defineRoute({
    method: 'POST',
    path: 'on_duty_handover',
    summary: 'Hand the shift over to a successor (who must confirm)',
    tags,
    body: handoverInput,
    response: handover,
  }),
  confirmHandover: defineRoute({
    method: 'PUT',
    path: 'on_duty_handover/:id',
    summary: 'The successor confirms the handover',
    tags,
    params: idParams,
    body: z.strictObject({ t: tParam }),
    response: handover,
  }),
  deleteHandover: defineRoute({
    method: 'DELETE',
    path: 'on_duty_handover/:id',
    summary: 'Withdraw a handover not yet confirmed (its shifter only)',
    tags,
    params: idParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  members: defineRoute({
    method: 'GET',
    path: 'on_duty_table/contacts',
    summary: 'Enabled contacts that can be put on duty',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
  successors: defineRoute({
    method: 'GET',
    path: 'on_duty_handover/users',
    summary: 'Enabled users a shift may be handed to',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
  me: defineRoute({
    method: 'GET',
    path: 'on_duty_handover/me',
    summary: 'Whether shift handover is on and the caller is on duty now (the shell’s alarm pop-up)',
    tags,
    query: z.object({ t: tParam }),
    response: z.object({ handover_enable: z.boolean(), on_duty: z.boolean() }),
  }),
  getSettings: defineRoute({
    method: 'GET',
    path: 'on_duty_handover/setting',
    summary: 'Whether shift handover routes alarm notices by the duty table',
    tags,
    query: z.object({ t: tParam }),
    response: dutySettings,
  }),
  setSettings: defineRoute({
    method: 'PUT',
    path: 'on_duty_handover/setting',
    summary: 'Enable or disable shift handover (standard mode when disabled)',
    tags,
    body: dutySettings.extend({ t: tParam }),
    response: dutySettings,
  }),
};
