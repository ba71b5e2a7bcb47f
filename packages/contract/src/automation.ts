import { z } from 'zod';
import { pageOf, pageQuery, tParam } from './envelope.ts';
import { repeatRule } from './inspection.ts';
import { defineRoute } from './route.ts';

/**
 * Automation (issue 32; docs/automation.md): actions (002 §7.1 setting/actions, the activity actions
 * of §2.3), linkage rules (setting/auto with update_state), timed tasks (setting/cron with its log)
 * and running an action by hand (§7.4 pub/remote_control). An action is a named list of commands;
 * each command is of an action kind (a plug-in family the areas contribute to: the server checks a
 * command's `params` with its kind's own schema and names the kinds in `setting/action_kinds`).
 */

/** Message keys (texts in the shared locale files, section `automation`). */
export const automationMessages = {
  name: 'automation.validation.name',
  action: 'automation.validation.action',
  commands: 'automation.validation.commands',
  kind: 'automation.validation.kind',
  params: 'automation.validation.params',
  presetCommand: 'automation.validation.presetCommand',
  site: 'automation.validation.site',
  conditions: 'automation.validation.conditions',
  item: 'automation.validation.item',
  sameAction: 'automation.validation.sameAction',
  loop: 'automation.validation.loop',
  cron: 'automation.validation.cron',
  repeat: 'automation.validation.repeat',
  start: 'automation.validation.start',
  actionInUse: 'automation.validation.actionInUse',
  notWritable: 'automation.validation.notWritable',
} as const;
const m = automationMessages;

const id = z.coerce.number().int().min(1).max(2_147_483_647);
const name = z.string({ error: m.name }).trim().min(1, { message: m.name }).max(100, { message: m.name });

/**
 * The typed presets of the activity actions (002 §2.3): air conditioner, light, dehumidifier,
 * sound-and-light, switch, temperature and humidity commands. A preset names what each command of
 * the action does (the editor offers its default value); `custom` takes any command.
 */
export const actionPresets = {
  custom: [],
  air_conditioner: ['power_on', 'power_off', 'mode', 'setpoint'],
  light: ['on', 'off'],
  dehumidifier: ['on', 'off'],
  sound_light: ['on', 'off'],
  switch: ['on', 'off'],
  temp_hum: ['temperature', 'humidity'],
} as const satisfies Record<string, readonly string[]>;
export type ActionPreset = keyof typeof actionPresets;
export const actionPreset = z.enum(Object.keys(actionPresets) as [ActionPreset, ...ActionPreset[]]);
/** The value a preset's command writes unless the user sets another (on 1, off 0). */
export const presetDefaults: Record<string, number> = { power_on: 1, power_off: 0, on: 1, off: 0 };

/** One command of an action: its kind (`item.write`, `notify.group` …) and the kind's parameters. */
export const actionCommand = z.object({
  kind: z.string({ error: m.kind }).trim().min(1, { message: m.kind }).max(64, { message: m.kind }),
  /** The preset's command this one is (`power_on` …); '' in a custom action. */
  command: z.string().trim().max(32).default(''),
  params: z.record(z.string().max(64), z.unknown()).default({}),
});
export type ActionCommand = z.infer<typeof actionCommand>;

export const actionBody = z.object({
  name,
  device_group_id: z.coerce.number({ error: m.site }).int().min(1, { message: m.site }).max(2_147_483_647),
  preset: actionPreset.default('custom'),
  commands: z.array(actionCommand, { error: m.action }).min(1, { message: m.action }).max(50, { message: m.commands }),
  remark: z.string().trim().max(500).default(''),
  t: tParam,
});
export type ActionBody = z.input<typeof actionBody>;

export const actionRow = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_id: z.number().int(),
  preset: actionPreset,
  commands: z.array(
    actionCommand.extend({
      /** The kind's own words for what the command does (`写入 机房空调 开关 = 1`). */
      description: z.string(),
    }),
  ),
  remark: z.string(),
  updated_at: z.number().int(),
});
export type ActionRow = z.infer<typeof actionRow>;

export const listQuery = pageQuery.extend({
  device_group_id: id.optional(),
  name: z.string().trim().max(100).optional(),
});

/**
 * A run's detail in words is a coded detail, stored as `{"code","params"}` JSON text and named in
 * the reader's language under `automationUi.runDetails.<code>` (as the operation log's details are,
 * docs/operation-log.md); any other text (a device's own error) is data, shown as it is. `refused`
 * names a message key in `params.key` (with that message's params).
 */
export const runDetailCodes = [
  'wrote',
  'wouldWrite',
  'queued',
  'wouldNotify',
  'orderSent',
  'wouldSend',
  'hasOrder',
  'collectorStopped',
  'itemMissing',
  'outOfRange',
  'notCollected',
  'groupMissing',
  'unknownKind',
  'actionMissing',
  'refused',
] as const;
export type RunDetailCode = (typeof runDetailCodes)[number];
export type RunDetailParams = Record<string, string | number>;

/** The stored text of a coded detail. */
export const runDetail = (code: RunDetailCode, params: RunDetailParams = {}): string =>
  JSON.stringify({ code, params });

const codedDetail = z.object({
  code: z.enum(runDetailCodes),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type CodedRunDetail = z.infer<typeof codedDetail>;

const parsed = (text: string): unknown => {
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * A stored detail as parts to show: a coded detail, or text as it is. A timed task's log holds the
 * details of its run's commands as one JSON list (`runDetailsText`); rows written before codes hold
 * English text, shown as it is.
 */
export const readRunDetails = (text: string): Array<CodedRunDetail | string> => {
  const value = parsed(text);
  const one = (v: unknown): CodedRunDetail | string => {
    const coded = codedDetail.safeParse(v);
    return coded.success ? coded.data : typeof v === 'string' ? v : JSON.stringify(v);
  };
  if (Array.isArray(value)) return value.map(one);
  return value === undefined ? [text] : [one(value)];
};

/**
 * The details of a run's commands as one stored text (a timed task's log, `max` characters): as
 * many whole details as fit, so the text always reads back.
 */
export const runDetailsText = (details: string[], max = 500): string => {
  const items = details.map((d) => {
    const value = parsed(d);
    return codedDetail.safeParse(value).success ? value : d;
  });
  for (let n = items.length; n > 0; n--) {
    const text = JSON.stringify(items.slice(0, n));
    if (text.length <= max) return text;
  }
  return (details[0] ?? '').slice(0, max);
};

/** One command's outcome in a run. */
export const commandResult = z.object({
  kind: z.string(),
  description: z.string(),
  ok: z.boolean(),
  detail: z.string(),
});
export const actionRun = z.object({
  id: z.number().int(),
  action_id: z.number().int(),
  action_name: z.string(),
  device_group_id: z.number().int(),
  /** manual, linkage, timer, overrun, recovery */
  trigger: z.string(),
  /** The rule, task or alarm that ran it (0 for a manual run). */
  trigger_id: z.number().int(),
  dry_run: z.boolean(),
  ok: z.boolean(),
  time: z.number().int(),
  user_name: z.string(),
  results: z.array(commandResult),
});
export type ActionRun = z.infer<typeof actionRun>;

/** A kind the server offers (any area may contribute one), for the action editor. */
export const actionKindInfo = z.object({
  kind: z.string(),
  /** Key of its name in the shared locale files. */
  name_key: z.string(),
  /** The params the editor asks for, in order. */
  fields: z.array(
    z.object({
      key: z.string(),
      type: z.enum(['item', 'number', 'contact_group', 'text', 'work_order_priority', 'user']),
      required: z.boolean(),
    }),
  ),
  /** Whether it writes to a device (needs the control function; every run is audited). */
  writes_device: z.boolean(),
});

export const remoteControlBody = z.object({
  action_id: id,
  /** Checks every command and reaches nothing: what would happen. */
  dry_run: z.boolean().default(false),
  t: tParam,
});

// ---------- linkage ----------

export const conditionOp = z.enum(['gt', 'ge', 'lt', 'le', 'eq', 'ne', 'alarm', 'normal']);
export const linkageCondition = z.object({
  item_id: z.coerce.number({ error: m.item }).int().min(1, { message: m.item }).max(2_147_483_647),
  /** gt…ne compare the item's value with `value`; `alarm`/`normal` its state (in alarm or not). */
  op: conditionOp,
  value: z.number().finite().default(0),
});
export type LinkageCondition = z.infer<typeof linkageCondition>;

export const linkageBody = z
  .object({
    name,
    device_group_id: z.coerce.number({ error: m.site }).int().min(1, { message: m.site }).max(2_147_483_647),
    enable: z.boolean().default(true),
    match: z.enum(['all', 'any']).default('all'),
    conditions: z.array(linkageCondition, { error: m.conditions }).min(1, { message: m.conditions }).max(20),
    /** How long the conditions must hold before the action runs (0: at once). */
    hold_seconds: z.coerce.number().int().min(0).max(86_400).default(0),
    /** A time period (setting/time_periods) the rule acts in; 0: always. */
    period_id: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
    action_id: z.coerce.number({ error: m.action }).int().min(1, { message: m.action }).max(2_147_483_647),
    /** Run when the conditions stop holding after the action ran; 0: none. */
    recovery_action_id: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
    t: tParam,
  })
  .superRefine((v, ctx) => {
    if (v.recovery_action_id !== 0 && v.recovery_action_id === v.action_id)
      ctx.addIssue({ code: 'custom', path: ['recovery_action_id'], message: m.sameAction });
  });
export type LinkageBody = z.input<typeof linkageBody>;

export const linkageRow = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_id: z.number().int(),
  enable: z.boolean(),
  match: z.enum(['all', 'any']),
  conditions: z.array(linkageCondition),
  hold_seconds: z.number().int(),
  period_id: z.number().int(),
  action_id: z.number().int(),
  recovery_action_id: z.number().int(),
  /** Each condition's item as "device / item" ('' for an item deleted since). */
  item_names: z.array(z.string()),
  /** Whether the conditions hold now (as the engine last judged them). */
  active: z.boolean(),
  last_fired: z.number().int().nullable(),
  updated_at: z.number().int(),
});
export type LinkageRow = z.infer<typeof linkageRow>;

export const updateStateBody = z.object({ id, enable: z.boolean(), t: tParam });

// ---------- timed tasks ----------

/** The repeat options of 002 §4 for scheduled items, and `cron` for an expression. */
export const cronRepeat = z.enum([...repeatRule.options, 'cron']);
export type CronRepeat = z.infer<typeof cronRepeat>;

export const cronBody = z
  .object({
    name,
    device_group_id: z.coerce.number({ error: m.site }).int().min(1, { message: m.site }).max(2_147_483_647),
    enable: z.boolean().default(true),
    action_id: z.coerce.number({ error: m.action }).int().min(1, { message: m.action }).max(2_147_483_647),
    repeat: cronRepeat,
    /** The first run (epoch seconds): the anchor of the repeat options. */
    start: z.coerce
      .number({ error: m.start })
      .int()
      .min(1, { message: m.start })
      .max(4_102_444_800)
      .default(0)
      .describe('The first run (epoch seconds); required for every repeat but cron.'),
    /** Five or six fields (`*\/5 * * * *`), with `repeat: 'cron'`. */
    cron: z.string().trim().max(120).default(''),
    t: tParam,
  })
  .superRefine((v, ctx) => {
    if (v.repeat === 'cron' && v.cron === '') ctx.addIssue({ code: 'custom', path: ['cron'], message: m.cron });
    if (v.repeat !== 'cron' && !(v.start > 0)) ctx.addIssue({ code: 'custom', path: ['start'], message: m.start });
  });
export type CronBody = z.input<typeof cronBody>;

export const cronRow = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_id: z.number().int(),
  enable: z.boolean(),
  action_id: z.number().int(),
  repeat: cronRepeat,
  start: z.number().int(),
  cron: z.string(),
  next_run: z.number().int().nullable(),
  last_run: z.number().int().nullable(),
  updated_at: z.number().int(),
});
export type CronRow = z.infer<typeof cronRow>;

export const cronLogQuery = pageQuery.extend({ task_id: id.optional() });
export const cronLogRow = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  task_name: z.string(),
  device_group_id: z.number().int(),
  time: z.number().int(),
  ok: z.boolean(),
  run_id: z.number().int(),
  detail: z.string(),
});

const tags = ['automation'];
const params = z.object({ id });

export const automationRoutes = {
  actionKinds: defineRoute({
    method: 'GET',
    path: 'setting/action_kinds',
    summary: 'The action kinds the server offers (every area contributes its own)',
    tags,
    response: z.array(actionKindInfo),
  }),
  actions: defineRoute({
    method: 'GET',
    path: 'setting/actions',
    summary: 'Actions of the granted sites',
    tags,
    query: listQuery,
    response: pageOf(actionRow),
  }),
  createAction: defineRoute({
    method: 'POST',
    path: 'setting/actions',
    summary: 'Add an action',
    tags,
    body: actionBody,
    response: actionRow,
  }),
  updateAction: defineRoute({
    method: 'PUT',
    path: 'setting/actions/:id',
    summary: 'Change an action',
    tags,
    params,
    body: actionBody,
    response: actionRow,
  }),
  deleteAction: defineRoute({
    method: 'DELETE',
    path: 'setting/actions/:id',
    summary: 'Delete an action no rule, task or item uses',
    tags,
    params,
    response: z.null(),
  }),
  actionRuns: defineRoute({
    method: 'GET',
    path: 'setting/motion_management/:id',
    summary: "An action's runs, newest first, with each command's result",
    tags,
    params,
    query: pageQuery,
    response: pageOf(actionRun),
  }),
  remoteControl: defineRoute({
    method: 'POST',
    path: 'pub/remote_control',
    summary: 'Run an action now (or a dry run that reaches nothing)',
    tags,
    body: remoteControlBody,
    response: actionRun,
  }),
  linkages: defineRoute({
    method: 'GET',
    path: 'setting/auto',
    summary: 'Linkage rules of the granted sites',
    tags,
    query: listQuery,
    response: pageOf(linkageRow),
  }),
  linkage: defineRoute({
    method: 'GET',
    path: 'setting/auto/:id',
    summary: 'One linkage rule',
    tags,
    params,
    response: linkageRow,
  }),
  createLinkage: defineRoute({
    method: 'POST',
    path: 'setting/auto',
    summary: 'Add a linkage rule',
    tags,
    body: linkageBody,
    response: linkageRow,
  }),
  updateLinkage: defineRoute({
    method: 'PUT',
    path: 'setting/auto/:id',
    summary: 'Change a linkage rule',
    tags,
    params,
    body: linkageBody,
    response: linkageRow,
  }),
  deleteLinkage: defineRoute({
    method: 'DELETE',
    path: 'setting/auto/:id',
    summary: 'Delete a linkage rule',
    tags,
    params,
    response: z.null(),
  }),
  linkageState: defineRoute({
    method: 'POST',
    path: 'setting/auto/update_state',
    summary: 'Enable or disable a linkage rule',
    tags,
    body: updateStateBody,
    response: linkageRow,
  }),
  crons: defineRoute({
    method: 'GET',
    path: 'setting/cron',
    summary: 'Timed tasks of the granted sites',
    tags,
    query: listQuery,
    response: pageOf(cronRow),
  }),
  createCron: defineRoute({
    method: 'POST',
    path: 'setting/cron',
    summary: 'Add a timed task',
    tags,
    body: cronBody,
    response: cronRow,
  }),
  updateCron: defineRoute({
    method: 'PUT',
    path: 'setting/cron/:id',
    summary: 'Change a timed task',
    tags,
    params,
    body: cronBody,
    response: cronRow,
  }),
  deleteCron: defineRoute({
    method: 'DELETE',
    path: 'setting/cron/:id',
    summary: 'Delete a timed task',
    tags,
    params,
    response: z.null(),
  }),
  cronLog: defineRoute({
    method: 'GET',
    path: 'setting/cron/log',
    summary: 'Runs of the timed tasks, newest first',
    tags,
    query: cronLogQuery,
    response: pageOf(cronLogRow),
  }),
};
