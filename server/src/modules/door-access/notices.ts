import {
  type DoorNoticeKind,
  type DoorNotices,
  type DoorOptions,
  doorNoticeKinds,
  doorNotices,
  doorOptions,
} from '@sitewatch/contract/door-access';
import type { Services } from '../../area.ts';
import type { Changes } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { badRequest } from '../../http/errors.ts';

export const noticesKey = 'door-access.notices';
export const optionsKey = 'door-access.options';

/**
 * Door access's notifications config and options (docs/door-access.md, "Notifications", "Options"):
 * both in module_settings through the one settings store, announced as `config.changed:door_access`.
 * A kind's contact group is the notify area's (`contactGroups`): a group that does not exist is refused.
 */
export const createDoorSettings = (deps: {
  db: Db;
  clock: () => number;
  changes: Changes;
  contactGroups: Services['contactGroups'];
  /** The sync interval before an administrator sets one (SITEWATCH_DOOR_SYNC_SECONDS, 60). */
  defaultSyncSeconds: number;
}) => {
  const store = createSettingsStore<{ [noticesKey]: DoorNotices; [optionsKey]: DoorOptions }>({
    db: deps.db,
    table: 'module_settings',
    schemas: { [noticesKey]: doorNotices, [optionsKey]: doorOptions },
    defaults: {
      [noticesKey]: doorNotices.parse({}),
      [optionsKey]: { sync_seconds: deps.defaultSyncSeconds, held_open_seconds: 0 },
    },
    clock: deps.clock,
    announce: { changes: deps.changes, topic: 'door_access' },
  });
  return {
    store,
    notices: () => store.get(noticesKey),
    options: () => store.get(optionsKey),
    /** Every kind in its order, with its group's name ('' for none or a group since removed). */
    async list() {
      const n = await store.get(noticesKey);
      const groups = new Map((await deps.contactGroups.list()).map((g) => [g.id, g.name]));
      return doorNoticeKinds.map((kind) => ({
        kind,
        ...n[kind],
        contact_group_name: groups.get(n[kind].contact_group_id) ?? '',
      }));
    },
    async setContact(kind: DoorNoticeKind, groupId: number) {
      if (groupId > 0 && (await deps.contactGroups.nameOf(groupId)) === null)
        throw badRequest('doorAccess.validation.contactGroup');
      const n = await store.get(noticesKey);
      await store.set(noticesKey, { ...n, [kind]: { ...n[kind], contact_group_id: groupId } });
    },
    async toggle(kind: DoorNoticeKind, enabled: boolean) {
      const n = await store.get(noticesKey);
      await store.set(noticesKey, { ...n, [kind]: { ...n[kind], enabled } });
    },
    setOptions: (o: DoorOptions) => store.set(optionsKey, o),
    contactGroups: () => deps.contactGroups.list(),
    /** The group a kind's notice goes to now: 0 when the kind is off or has none. */
    async groupOf(kind: DoorNoticeKind) {
      const k = (await store.get(noticesKey))[kind];
      return k.enabled ? k.contact_group_id : 0;
    },
  };
};
export type DoorSettings = ReturnType<typeof createDoorSettings>;
