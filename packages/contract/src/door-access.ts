import { z } from 'zod';
import { tParam } from './envelope.ts';
import { id, idParams, msg as monitoringMsg } from './monitoring/fields.ts';
import { defineRoute } from './route.ts';

/**
 * Door access (002 §2.1, §3 "Door access", §7.1 `setting/access_control`, §7.8; issue 34;
 * docs/door-access.md): controllers of a site, their doors, cards with their holder, each card's
 * permissions over doors, the swipe log synchronised from the controllers, remote control. The spec
 * names the service's sub-paths (device, card, log, ctrl, copy, log_sync, supporttedlist …) but not
 * its prefix: they live under `access_control/`, beside §7.1's `setting/access_control`.
 */

const msg = (key: string) => `doorAccess.validation.${key}`;
const tags = ['door-access'];

/** Menu ids (docs/menus.md): 800 the group, then one per page of 002 §2.1. */
export const doorMenus = {
  group: 800,
  devices: 801,
  cards: 802,
  remoteControl: 803,
  logs: 804,
  doorLogs: 805,
  logCustom: 806,
  permission: 807,
  device: 808,
  noticeConfig: 809,
  setting: 810,
} as const;

/** The pages that read the controllers and their doors (each shows or filters by them). */
export const doorReaders = [
  doorMenus.devices,
  doorMenus.cards,
  doorMenus.remoteControl,
  doorMenus.logs,
  doorMenus.doorLogs,
  doorMenus.logCustom,
  doorMenus.permission,
  doorMenus.device,
] as const;
/** The pages that read the log. */
export const logReaders = [doorMenus.logs, doorMenus.doorLogs, doorMenus.logCustom, doorMenus.device] as const;
/** The pages that read the cards. */
export const cardReaders = [doorMenus.cards, doorMenus.permission] as const;

/** Protocols an adapter exists for (supporttedlist answers these; docs/door-access.md says what is left). */
export const doorProtocols = ['wg-udp'] as const;
export const doorProtocol = z.enum(doorProtocols);

/** Card formats: the raw number is what the controller stores; the format says how people read it. */
export const cardFormats = ['wiegand26', 'wiegand34', 'plain'] as const;
export const cardFormat = z.enum(cardFormats);
export type CardFormat = z.infer<typeof cardFormat>;

/**
 * A card number shown both ways: Wiegand-26 as facility code (8 bits) and card number (16 bits),
 * Wiegand-34 as facility (16 bits) and card (16 bits); plain as the decimal number only.
 */
export const cardDisplay = (raw: number, format: CardFormat): string => {
  if (format === 'wiegand26') return `${(raw >>> 16) & 0xff}:${raw & 0xffff}`;
  if (format === 'wiegand34') return `${(raw >>> 16) & 0xffff}:${raw & 0xffff}`;
  return String(raw);
};

/** Whether a raw number fits its format (Wiegand-26 holds 24 bits, Wiegand-34 and plain 32). */
export const cardFits = (raw: number, format: CardFormat) =>
  Number.isInteger(raw) && raw >= 1 && raw <= (format === 'wiegand26' ? 0xffffff : 0xfffffffe);

const text = (max: number, key: string) =>
  z
    .string({ message: monitoringMsg(key) })
    .trim()
    .min(1, { message: monitoringMsg(key) })
    .max(max, { message: monitoringMsg('tooLong') });
const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: monitoringMsg('tooLong') })
    .default('');
const ipv4 = z
  .string({ message: monitoringMsg('ip') })
  .trim()
  .regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/, {
    message: monitoringMsg('ip'),
  });
const date = z
  .string({ message: msg('date') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: msg('date') })
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: msg('date'),
    },
  );

export const doorInput = z.strictObject({
  number: z
    .number({ message: msg('door') })
    .int({ message: msg('door') })
    .min(1, { message: msg('door') })
    .max(4, {
      message: msg('door'),
    }),
  nickname: optional(64),
  direction: z.enum(['in', 'out', 'both']).default('both'),
});

export const controllerInput = z.strictObject({
  name: text(64, 'name'),
  device_group_id: z
    .number({ message: monitoringMsg('site') })
    .int()
    .min(1, { message: monitoringMsg('site') }),
  brand: optional(64),
  model: optional(64),
  protocol: doorProtocol.default('wg-udp'),
  serial: z
    .number({ message: msg('serial') })
    .int({ message: msg('serial') })
    .min(1, { message: msg('serial') })
    .max(0xfffffffe, { message: msg('serial') }),
  address: ipv4,
  port: z
    .number({ message: monitoringMsg('port') })
    .int({ message: monitoringMsg('port') })
    .min(1, { message: monitoringMsg('port') })
    .max(65535, { message: monitoringMsg('port') })
    .default(60000),
  doors: z
    .array(doorInput)
    .max(4, { message: msg('door') })
    .refine((d) => new Set(d.map((x) => x.number)).size === d.length, { message: msg('doorTwice') })
    .default([{ number: 1, nickname: '', direction: 'both' }]),
});
export type ControllerInput = z.output<typeof controllerInput>;

export const doorRow = z.object({
  id: z.number(),
  controller_id: z.number(),
  number: z.number(),
  nickname: z.string(),
  direction: z.string(),
});
export const controllerRow = z.object({
  id: z.number(),
  name: z.string(),
  device_group_id: z.number(),
  brand: z.string(),
  model: z.string(),
  protocol: z.string(),
  serial: z.number(),
  address: z.string(),
  port: z.number(),
  online: z.boolean(),
  last_event_index: z.number(),
  doors: z.array(doorRow),
});
export type ControllerRow = z.infer<typeof controllerRow>;

const permission = z.strictObject({
  door_id: id,
  /** 0 any time; 2..254 a time profile on the controller. */
  profile: z.number().int().min(0).max(254).default(0),
});

export const cardInput = z
  .strictObject({
    number: z.number({ message: msg('card') }).int({ message: msg('card') }),
    format: cardFormat.default('plain'),
    device_group_id: z
      .number({ message: monitoringMsg('site') })
      .int()
      .min(1, { message: monitoringMsg('site') }),
    holder: text(64, 'name'),
    gender: z.enum(['', 'male', 'female']).default(''),
    department: optional(64),
    job_number: optional(32),
    valid_from: date,
    valid_to: date,
    /**
     * Keypad PIN, 0 none; never answered back, never logged. Left out: none on a new card, the
     * card's own kept on an edit (the pages never see it to send it back).
     */
    pin: z
      .number({ message: msg('pin') })
      .int({ message: msg('pin') })
      .min(0, { message: msg('pin') })
      .max(999999, {
        message: msg('pin'),
      })
      .optional(),
    doors: z.array(permission).max(64).default([]),
  })
  .refine((c) => cardFits(c.number, c.format), { message: msg('card'), path: ['number'] })
  .refine((c) => c.valid_to >= c.valid_from, { message: monitoringMsg('endBeforeStart'), path: ['valid_to'] });
export type CardInput = z.output<typeof cardInput>;

export const cardRow = z.object({
  id: z.number(),
  number: z.number(),
  format: cardFormat,
  display: z.string(),
  device_group_id: z.number(),
  holder: z.string(),
  gender: z.string(),
  department: z.string(),
  job_number: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  has_pin: z.boolean(),
  doors: z.array(z.object({ door_id: z.number(), profile: z.number() })),
});
export type CardRow = z.infer<typeof cardRow>;

export const doorLogRow = z.object({
  id: z.number(),
  controller_id: z.number(),
  controller_name: z.string(),
  event_index: z.number(),
  /** swipe, door, alarm, gap (the controller's ring overwrote `event_index`..`gap_to`). */
  kind: z.string(),
  granted: z.boolean(),
  door: z.number(),
  /** The door's nickname, '' when it has none or the door is gone. */
  door_name: z.string(),
  direction: z.string(),
  card: z.string(),
  holder: z.string(),
  job_number: z.string(),
  time: z.number(),
  reason: z.number(),
  gap_to: z.number().nullable(),
});

export type DoorLogRow = z.infer<typeof doorLogRow>;

export const doorLogKinds = ['swipe', 'door', 'alarm', 'gap'] as const;

/**
 * The log's filters (/door_logs, /doors_logs, /door_log_custom): controller, door (a door row: its
 * controller and number), person (the holder's name or job number, or the card as its raw number or
 * as facility:card), kind, granted or refused, and a time range in epoch seconds.
 */
const doorLogFilter = {
  controller_id: id.optional(),
  door_id: id.optional(),
  person: z
    .string()
    .trim()
    .max(64, { message: monitoringMsg('tooLong') })
    .optional(),
  kind: z.enum(doorLogKinds).optional(),
  granted: z.enum(['true', 'false']).optional(),
  start: z.coerce.number().int().min(0).optional(),
  end: z.coerce.number().int().min(0).optional(),
};
export const doorLogQuery = z.strictObject({
  ...doorLogFilter,
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(50),
});
export type DoorLogFilter = Omit<z.output<typeof doorLogQuery>, 'page' | 'page_size'>;
export const doorLogExportQuery = z.strictObject({
  ...doorLogFilter,
  tz_offset: z.coerce.number().int().min(-720).max(840).default(0),
  t: tParam,
});
/** At most this many rows go into one log export. */
export const doorLogExportLimit = 100_000;

/** One card's permission over one door, with what the page shows of both. */
export const permissionRow = z.object({
  card_id: z.number(),
  door_id: z.number(),
  profile: z.number(),
  holder: z.string(),
  job_number: z.string(),
  department: z.string(),
  display: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
});
export const permissionQuery = z.strictObject({ door_id: id.optional() });
/** The cards allowed through one door (all of them: those not named lose it). */
export const doorPermissionInput = z.strictObject({
  cards: z
    .array(permission.omit({ door_id: true }).extend({ card_id: id }))
    .max(2000)
    .refine((c) => new Set(c.map((x) => x.card_id)).size === c.length, { message: msg('cardTwice') }),
});

export const ctrlInput = z.strictObject({
  door_id: id,
  action: z.enum(['open', 'normallyOpen', 'normallyClosed', 'controlled']),
  /** Seconds the lock stays open in controlled mode. */
  delay: z.number().int().min(0).max(255).default(3),
  verify_password: z.string({ message: msg('password') }).min(1, { message: msg('password') }),
});

export const copyInput = z.strictObject({
  from_card_id: id,
  to_card_ids: z
    .array(id)
    .min(1, { message: monitoringMsg('ids') })
    .max(500),
});

const listOf = <T extends z.ZodType>(row: T) => z.object({ list: z.array(row) });

/**
 * The door events that can notify (docs/door-access.md, "Notifications"): a door forced open
 * (reason 38), held open too long (the controller's reason 37, or open past the held-open threshold
 * by its status), an invalid card (a refused swipe), a controller that stops answering.
 */
export const doorNoticeKinds = ['forced', 'held', 'invalid', 'offline'] as const;
export const doorNoticeKind = z.enum(doorNoticeKinds, { message: msg('noticeKind') });
export type DoorNoticeKind = z.infer<typeof doorNoticeKind>;
/** One kind's notification: on or off, and the contact group whose contacts and channels it goes to (0 none). */
export const doorNotice = z.object({
  enabled: z.boolean(),
  contact_group_id: z.number().int().min(0).max(2_147_483_647),
});
/** The stored notifications config (module_settings `door-access.notices`). */
export const doorNotices = z.object({
  forced: doorNotice.default({ enabled: true, contact_group_id: 0 }),
  held: doorNotice.default({ enabled: true, contact_group_id: 0 }),
  invalid: doorNotice.default({ enabled: false, contact_group_id: 0 }),
  offline: doorNotice.default({ enabled: true, contact_group_id: 0 }),
});
export type DoorNotices = z.infer<typeof doorNotices>;
export const doorNoticeRow = doorNotice.extend({ kind: doorNoticeKind, contact_group_name: z.string() });
export const doorContactInput = z.strictObject({
  kind: doorNoticeKind,
  contact_group_id: z
    .number({ message: msg('contactGroup') })
    .int()
    .min(0)
    .max(2_147_483_647),
});
export const doorToggleInput = z.strictObject({
  kind: doorNoticeKind,
  enabled: z.boolean({ message: msg('enabled') }),
});
/** A contact group a door notice can go to, with the channels it reaches its contacts by. */
export const doorContactGroup = z.object({
  id: z.number(),
  name: z.string(),
  contacts: z.number(),
  /** `email`, `sms`, `voice` (the group's own switches) and its push channels by their kind and name. */
  channels: z.array(z.object({ kind: z.string(), name: z.string() })),
});

/** Seconds: 0 (off) or within [min, max]. */
const offOr = (min: number, max: number, key: string) =>
  z
    .number({ message: msg(key) })
    .int({ message: msg(key) })
    .refine((n) => n === 0 || (n >= min && n <= max), { message: msg(key) });
/** The door-access options (/door_setting; module_settings `door-access.options`). */
export const doorOptions = z.strictObject({
  /** Seconds between sync passes of every controller (0: none; pushed events and Sync now still read). */
  sync_seconds: offOr(10, 86_400, 'syncSeconds'),
  /** A door seen open by its controller's status this long is held open too long (0: only the controller's own report). */
  held_open_seconds: offOr(5, 86_400, 'heldOpenSeconds'),
});
export type DoorOptions = z.infer<typeof doorOptions>;

export const doorAccessRoutes = {
  settings: defineRoute({
    method: 'GET',
    path: 'setting/access_control',
    summary: 'Door access settings: the protocols Sitewatch speaks and the log sync interval',
    tags,
    response: z.object({ protocols: z.array(z.string()), sync_seconds: z.number() }),
  }),
  supported: defineRoute({
    method: 'GET',
    path: 'access_control/supporttedlist',
    summary: 'Controller protocols Sitewatch has an adapter for',
    tags,
    response: listOf(z.object({ protocol: z.string(), brands: z.array(z.string()) })),
  }),
  devices: defineRoute({
    method: 'GET',
    path: 'access_control/device',
    summary: 'Door controllers of the granted sites, with their doors',
    tags,
    response: listOf(controllerRow),
  }),
  createDevice: defineRoute({
    method: 'POST',
    path: 'access_control/device',
    summary: 'Add a door controller and its doors',
    tags,
    body: controllerInput,
    response: z.object({ id: z.number() }),
  }),
  updateDevice: defineRoute({
    method: 'PUT',
    path: 'access_control/device/:id',
    summary: 'Change a door controller and its doors',
    tags,
    params: idParams,
    body: controllerInput,
    response: z.null(),
  }),
  removeDevice: defineRoute({
    method: 'DELETE',
    path: 'access_control/device/:id',
    summary: 'Remove a door controller, its doors and the permissions over them',
    tags,
    params: idParams,
    response: z.null(),
  }),
  cards: defineRoute({
    method: 'GET',
    path: 'access_control/card',
    summary: 'Cards of the granted sites with their holder and permissions (never the PIN)',
    tags,
    response: listOf(cardRow),
  }),
  createCard: defineRoute({
    method: 'POST',
    path: 'access_control/card',
    summary: 'Issue a card to a person with permissions over doors',
    tags,
    body: cardInput,
    response: z.object({ id: z.number() }),
  }),
  updateCard: defineRoute({
    method: 'PUT',
    path: 'access_control/card/:id',
    summary: 'Change a card, its holder or its permissions',
    tags,
    params: idParams,
    body: cardInput,
    response: z.null(),
  }),
  removeCard: defineRoute({
    method: 'DELETE',
    path: 'access_control/card/:id',
    summary: 'Withdraw a card (the next push removes it from the controllers)',
    tags,
    params: idParams,
    response: z.null(),
  }),
  copy: defineRoute({
    method: 'POST',
    path: 'access_control/copy',
    summary: 'Copy one card’s door permissions to other cards',
    tags,
    body: copyInput,
    response: z.object({ copied: z.number() }),
  }),
  logs: defineRoute({
    method: 'GET',
    path: 'access_control/log',
    summary: 'Swipes, door events, alarms and gaps from the controllers',
    tags,
    query: doorLogQuery,
    response: z.object({ list: z.array(doorLogRow), total: z.number() }),
  }),
  logExport: defineRoute({
    method: 'GET',
    path: 'access_control/log/export',
    summary: 'Every row of the filtered door log as an xlsx file (/door_log_custom)',
    tags,
    query: doorLogExportQuery,
    response: z.null(),
  }),
  permissions: defineRoute({
    method: 'GET',
    path: 'access_control/permission',
    summary: 'Permissions of cards over doors, with the holder and the card (/door_permission)',
    tags,
    query: permissionQuery,
    response: listOf(permissionRow),
  }),
  setPermissions: defineRoute({
    method: 'PUT',
    path: 'access_control/permission/:id',
    summary: 'Set the cards allowed through one door (the next push gives the controller the difference)',
    tags,
    params: idParams,
    body: doorPermissionInput,
    response: z.object({ cards: z.number() }),
  }),
  logSync: defineRoute({
    method: 'POST',
    path: 'access_control/log_sync',
    summary: 'Read a controller’s events since the last one held, and push its cards',
    tags,
    body: z.strictObject({ controller_id: id }),
    response: z.object({
      events: z.number(),
      gaps: z.number(),
      through: z.number(),
      cards_put: z.number(),
      cards_removed: z.number(),
      online: z.boolean(),
    }),
  }),
  ctrl: defineRoute({
    method: 'POST',
    path: 'access_control/ctrl',
    summary: 'Open a door, or set it normally open, normally closed or controlled (verification password)',
    tags,
    body: ctrlInput,
    response: z.object({ done: z.boolean() }),
  }),
  notices: defineRoute({
    method: 'GET',
    path: 'access_control/nofify/config',
    summary: 'Which door events notify, each on or off, and the contact group each goes to (/door_notice_config)',
    tags,
    response: listOf(doorNoticeRow),
  }),
  contacts: defineRoute({
    method: 'GET',
    path: 'access_control/contact',
    summary: 'Contact groups a door notice can go to, with their channels',
    tags,
    response: listOf(doorContactGroup),
  }),
  setContact: defineRoute({
    method: 'PUT',
    path: 'access_control/contact',
    summary: 'Set the contact group one kind of door event notifies (0: none)',
    tags,
    body: doorContactInput,
    response: z.null(),
  }),
  toggle: defineRoute({
    method: 'POST',
    path: 'access_control/toggle',
    summary: 'Switch the notifications of one kind of door event on or off',
    tags,
    body: doorToggleInput,
    response: z.null(),
  }),
  options: defineRoute({
    method: 'GET',
    path: 'access_control/option',
    summary: 'Door access options: the sync interval, the held-open threshold, the event listener (/door_setting)',
    tags,
    response: doorOptions.extend({ listener: z.string() }),
  }),
  setOptions: defineRoute({
    method: 'PUT',
    path: 'access_control/option',
    summary: 'Change the door access options',
    tags,
    body: doorOptions,
    response: z.null(),
  }),
};
