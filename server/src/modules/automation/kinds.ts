import type { AlarmRow } from '@sitewatch/contract/alarms';
import { type actionKindInfo, runDetail } from '@sitewatch/contract/automation';
import { checkWrite, type ItemSource } from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import type { Collector } from '../../collector/collector.ts';
import type { Db } from '../../db/kysely.ts';
import type { Notifier } from '../../notify/notifier.ts';

/** Why and for whom an action runs. */
export interface RunContext {
  trigger: 'manual' | 'linkage' | 'timer' | 'overrun' | 'recovery' | 'confirm';
  trigger_id: number;
  /** The action's site. */
  site: number;
  action_name: string;
  /** The alarm that ran it (overrun and recovery actions). */
  alarm?: AlarmRow | undefined;
  /** Epoch seconds. */
  now: number;
}

/** What a command did, or (dry run) would do: `detail` a coded detail (`runDetail`), or data as it is. */
export interface CommandOutcome {
  ok: boolean;
  detail: string;
}

/** A check of a command when it is saved: the caller's granted sites (null: all). */
export interface CheckContext {
  sites: readonly number[] | null;
}

/**
 * An action kind (docs/automation.md, "Action kinds"): one member of the plug-in family that any
 * area contributes to (`contributes: { actionKinds: [...] }`), as drivers and notification channels
 * are. The automation area knows none of them by name: it validates, describes, runs and dry-runs
 * every command through its kind.
 */
export interface ActionKind {
  kind: string;
  /** Key of the kind's name in the shared locale files. */
  nameKey: string;
  fields: z.infer<typeof actionKindInfo>['fields'];
  /** Writes to a device: saving or running it needs the control function, and each run is audited. */
  writesDevice: boolean;
  /** The shape of `params`. */
  params: z.ZodType;
  /**
   * Checks a command's params against the stored estate when it is saved: a message key (with
   * params) refusing it, or null.
   */
  validate(params: unknown, check: CheckContext): Promise<{ key: string; params?: Record<string, unknown> } | null>;
  /** Words for what the command does, for the editor and the run log. */
  describe(params: unknown): Promise<string>;
  run(params: unknown, context: RunContext): Promise<CommandOutcome>;
  /** Reaches nothing: checks that the command could run now and says what it would do. */
  dryRun(params: unknown, context: RunContext): Promise<CommandOutcome>;
  /** The items the command writes (the linkage loop guard). */
  writesItems?(params: unknown): number[];
}

declare module '../../area.ts' {
  interface Families {
    /** Kinds of action commands (docs/automation.md). */
    actionKinds: ActionKind;
  }
}

const itemWriteParams = z.object({
  item_id: z.number().int().min(1).max(2_147_483_647),
  value: z.number().finite(),
});

const itemOf = (db: Db, id: number) =>
  db.kysely
    .selectFrom('items')
    .innerJoin('devices', 'devices.id', 'items.device_id')
    .select(['items.id', 'items.name', 'items.source', 'devices.name as device_name', 'devices.device_group_id'])
    .where('items.id', '=', id)
    .executeTakeFirst();

const sourceOf = (text: string): ItemSource | null => {
  try {
    return JSON.parse(text) as ItemSource;
  } catch {
    return null;
  }
};

/**
 * Writes a value to an item through the collector's driver of its device (a Modbus register or
 * coil, an SNMP set, an MQTT publish): what the station page's setpoint write does.
 */
export const itemWriteKind = (db: Db, collector: () => Collector | undefined): ActionKind => {
  const describe = async (raw: unknown) => {
    const p = itemWriteParams.parse(raw);
    const item = await itemOf(db, p.item_id);
    return item ? `${item.device_name} / ${item.name} ← ${p.value}` : `#${p.item_id} ← ${p.value}`;
  };
  /** Null when the command could run now, else why not. */
  const problem = async (raw: unknown): Promise<string | null> => {
    const p = itemWriteParams.parse(raw);
    const item = await itemOf(db, p.item_id);
    if (!item) return runDetail('itemMissing');
    const source = sourceOf(item.source);
    if (!source || !checkWrite(source, p.value).ok) return runDetail('outOfRange');
    const c = collector();
    if (!c || c.deviceOfItem(p.item_id) === undefined) return runDetail('notCollected');
    return null;
  };
  return {
    kind: 'item.write',
    nameKey: 'automation.kinds.itemWrite',
    fields: [
      { key: 'item_id', type: 'item', required: true },
      { key: 'value', type: 'number', required: true },
    ],
    writesDevice: true,
    params: itemWriteParams,
    async validate(raw, check) {
      const p = itemWriteParams.parse(raw);
      const item = await itemOf(db, p.item_id);
      if (!item || (check.sites !== null && !check.sites.includes(item.device_group_id)))
        return { key: 'automation.validation.item' };
      const source = sourceOf(item.source);
      const fits = source ? checkWrite(source, p.value) : { ok: false as const };
      return fits.ok ? null : { key: 'automation.validation.notWritable', params: { name: item.name } };
    },
    describe,
    async run(raw) {
      const p = itemWriteParams.parse(raw);
      const c = collector();
      if (!c) return { ok: false, detail: runDetail('collectorStopped') };
      try {
        await c.write(p.item_id, p.value);
        return { ok: true, detail: runDetail('wrote', { what: await describe(raw) }) };
      } catch (err) {
        return { ok: false, detail: err instanceof Error ? err.message.slice(0, 200) : String(err) };
      }
    },
    async dryRun(raw) {
      const why = await problem(raw);
      return why
        ? { ok: false, detail: why }
        : { ok: true, detail: runDetail('wouldWrite', { what: await describe(raw) }) };
    },
    writesItems: (raw) => [itemWriteParams.parse(raw).item_id],
  };
};

const notifyParams = z.object({
  contact_group_id: z.number().int().min(1).max(2_147_483_647),
  message: z.string().trim().max(500).default(''),
});

/** Notifies a contact group through the notifier (its channels, periods and duty roster). */
export const notifyGroupKind = (db: Db, notifier: Notifier): ActionKind => {
  const groupOf = (id: number) =>
    db.kysely.selectFrom('contact_groups').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  const describe = async (raw: unknown) => {
    const p = notifyParams.parse(raw);
    const group = await groupOf(p.contact_group_id);
    return `→ ${group?.name ?? `#${p.contact_group_id}`}${p.message ? `: ${p.message}` : ''}`;
  };
  return {
    kind: 'notify.group',
    nameKey: 'automation.kinds.notifyGroup',
    fields: [
      { key: 'contact_group_id', type: 'contact_group', required: true },
      { key: 'message', type: 'text', required: false },
    ],
    writesDevice: false,
    params: notifyParams,
    async validate(raw) {
      const p = notifyParams.parse(raw);
      return (await groupOf(p.contact_group_id)) ? null : { key: 'automation.validation.params' };
    },
    describe,
    async run(raw, context) {
      const p = notifyParams.parse(raw);
      if (!(await groupOf(p.contact_group_id))) return { ok: false, detail: runDetail('groupMissing') };
      const a = context.alarm;
      const site = await db.kysely
        .selectFrom('device_groups')
        .select('name')
        .where('id', '=', context.site)
        .executeTakeFirst();
      notifier.enqueue({
        action: context.trigger === 'recovery' ? 'recovery' : 'notice',
        contact_group_id: p.contact_group_id,
        subject: {
          alarm_id: a?.status_id ?? 0,
          item_id: a?.item_id ?? 0,
          item_name: a?.item_name ?? context.action_name,
          device_name: a?.device_name ?? '',
          device_group_id: a?.device_group_id ?? context.site,
          device_group_name: a?.device_group_name ?? site?.name ?? '',
          state: a?.status ?? 2,
          level: a?.level ?? 1,
          value: a?.value ?? null,
          decimals: null,
          unit: '',
          info: p.message || (a?.info ?? context.action_name),
          time: context.now,
        },
      });
      return { ok: true, detail: runDetail('queued', { what: await describe(raw) }) };
    },
    async dryRun(raw) {
      const p = notifyParams.parse(raw);
      return (await groupOf(p.contact_group_id))
        ? { ok: true, detail: runDetail('wouldNotify', { what: await describe(raw) }) }
        : { ok: false, detail: runDetail('groupMissing') };
    },
  };
};
