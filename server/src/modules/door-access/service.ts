import {
  type CardFormat,
  type CardInput,
  type CardRow,
  type ControllerInput,
  type ControllerRow,
  cardDisplay,
} from '@sitewatch/contract/door-access';
import type { Db } from '../../db/kysely.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { createDoorLogRows } from './log-rows.ts';
import { createPermissionRows } from './permission-rows.ts';

export { epochOfLocal, localTime } from './time.ts';

/**
 * The rows of door access (docs/door-access.md): what Sitewatch wants each controller to hold.
 * Every row carries its site (`device_group_id`); reads answer the caller's sites only, and a
 * write naming another site's row answers as if the row did not exist.
 */

const toControllerRow = (
  c: {
    id: number;
    name: string;
    device_group_id: number;
    brand: string;
    model: string;
    protocol: string;
    serial: number;
    address: string;
    port: number;
    online: number;
    last_event_index: number;
  },
  doors: ControllerRow['doors'],
): ControllerRow => ({ ...c, online: c.online === 1, doors });

/** Writes a controller's doors: new ones added, gone ones removed with their permissions. */
const writeDoors = async (trx: Db['kysely'], controllerId: number, siteId: number, input: ControllerInput) => {
  const held = await trx.selectFrom('door_doors').selectAll().where('controller_id', '=', controllerId).execute();
  const wanted = new Set(input.doors.map((d) => d.number));
  const gone = held.filter((d) => !wanted.has(d.number)).map((d) => d.id);
  if (gone.length > 0) {
    await trx.deleteFrom('door_permissions').where('door_id', 'in', gone).execute();
    await trx.deleteFrom('door_doors').where('id', 'in', gone).execute();
  }
  for (const d of input.doors) {
    const row = held.find((h) => h.number === d.number);
    if (row)
      await trx
        .updateTable('door_doors')
        .set({ nickname: d.nickname, direction: d.direction, device_group_id: siteId })
        .where('id', '=', row.id)
        .execute();
    else
      await trx
        .insertInto('door_doors')
        .values({ controller_id: controllerId, device_group_id: siteId, ...d })
        .execute();
  }
  // Permissions over these doors follow the controller's site.
  await trx
    .updateTable('door_permissions')
    .set({ device_group_id: siteId })
    .where('door_id', 'in', (q) => q.selectFrom('door_doors').select('id').where('controller_id', '=', controllerId))
    .execute();
};

export const createDoorRows = (db: Db, clock: () => number) => {
  const k = db.kysely;
  const now = () => Math.floor(clock() / 1000);

  const doorsOf = async (controllerIds: number[]) =>
    controllerIds.length === 0
      ? []
      : k.selectFrom('door_doors').selectAll().where('controller_id', 'in', controllerIds).orderBy('number').execute();

  const controller = async (id: number, scope: SiteScope) => {
    const row = await k.selectFrom('door_controllers').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !scope.has(row.device_group_id)) throw notFound('doorAccess.errors.controllerNotFound');
    return row;
  };

  const card = async (id: number, scope: SiteScope) => {
    const row = await k.selectFrom('door_cards').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !scope.has(row.device_group_id)) throw notFound('doorAccess.errors.cardNotFound');
    return row;
  };

  const siteExists = async (siteId: number, scope: SiteScope) => {
    scope.requireSites([siteId]);
    const site = await k.selectFrom('device_groups').select('id').where('id', '=', siteId).executeTakeFirst();
    if (!site) throw badRequest('monitoring.validation.site');
  };

  /** The doors a card may be given: each one of the card's site and of the caller's. */
  const checkDoors = async (input: CardInput, scope: SiteScope) => {
    const ids = input.doors.map((d) => d.door_id);
    if (new Set(ids).size !== ids.length) throw badRequest('doorAccess.validation.doorTwice');
    if (ids.length === 0) return;
    const found = await k.selectFrom('door_doors').select(['id', 'device_group_id']).where('id', 'in', ids).execute();
    if (found.length !== ids.length || found.some((d) => !scope.has(d.device_group_id)))
      throw badRequest('doorAccess.validation.doorUnknown');
    if (found.some((d) => d.device_group_id !== input.device_group_id))
      throw badRequest('doorAccess.validation.doorOtherSite');
  };

  const numberTaken = async (number: number, except: number | null) => {
    const row = await k.selectFrom('door_cards').select('id').where('number', '=', number).executeTakeFirst();
    return !!row && row.id !== except;
  };

  const serialTaken = async (serial: number, except: number | null) => {
    const row = await k.selectFrom('door_controllers').select('id').where('serial', '=', serial).executeTakeFirst();
    return !!row && row.id !== except;
  };

  const toCardRow = (
    c: Awaited<ReturnType<typeof card>>,
    perms: Array<{ card_id: number; door_id: number; profile: number }>,
  ): CardRow => ({
    id: c.id,
    number: c.number,
    format: c.format as CardFormat,
    display: cardDisplay(c.number, c.format as CardFormat),
    device_group_id: c.device_group_id,
    holder: c.holder,
    gender: c.gender,
    department: c.department,
    job_number: c.job_number,
    valid_from: c.valid_from,
    valid_to: c.valid_to,
    has_pin: c.pin > 0,
    doors: perms.filter((p) => p.card_id === c.id).map((p) => ({ door_id: p.door_id, profile: p.profile })),
  });

  return {
    controller,
    async controllers(scope: SiteScope): Promise<ControllerRow[]> {
      let q = k.selectFrom('door_controllers').selectAll().orderBy('id');
      if (scope.sites !== null) q = q.where('device_group_id', 'in', [0, ...scope.sites]);
      const rows = await q.execute();
      const doors = await doorsOf(rows.map((r) => r.id));
      return rows.map((r) =>
        toControllerRow(
          r,
          doors
            .filter((d) => d.controller_id === r.id)
            .map((d) => ({
              id: d.id,
              controller_id: d.controller_id,
              number: d.number,
              nickname: d.nickname,
              direction: d.direction,
            })),
        ),
      );
    },
    async createController(input: ControllerInput, scope: SiteScope) {
      await siteExists(input.device_group_id, scope);
      if (await serialTaken(input.serial, null)) throw conflict('doorAccess.errors.serialTaken');
      return k.transaction().execute(async (trx) => {
        const { doors: _doors, ...fields } = input;
        const { id } = await trx
          .insertInto('door_controllers')
          .values({ ...fields, online: 0, last_event_index: 0, created_at: now(), updated_at: now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeDoors(trx, id, input.device_group_id, input);
        return { id };
      });
    },
    async updateController(id: number, input: ControllerInput, scope: SiteScope) {
      const held = await controller(id, scope);
      await siteExists(input.device_group_id, scope);
      if (await serialTaken(input.serial, id)) throw conflict('doorAccess.errors.serialTaken');
      // A new serial is another controller: its event index starts again.
      const reset = held.serial !== input.serial ? { last_event_index: 0 } : {};
      await k.transaction().execute(async (trx) => {
        const { doors: _doors, ...fields } = input;
        await trx
          .updateTable('door_controllers')
          .set({ ...fields, ...reset, updated_at: now() })
          .where('id', '=', id)
          .execute();
        await writeDoors(trx, id, input.device_group_id, input);
      });
      return null;
    },
    async removeController(id: number, scope: SiteScope) {
      await controller(id, scope);
      await k.transaction().execute(async (trx) => {
        const doors = trx.selectFrom('door_doors').select('id').where('controller_id', '=', id);
        await trx.deleteFrom('door_permissions').where('door_id', 'in', doors).execute();
        await trx.deleteFrom('door_doors').where('controller_id', '=', id).execute();
        await trx.deleteFrom('door_controllers').where('id', '=', id).execute();
      });
      return null;
    },
    async cards(scope: SiteScope): Promise<CardRow[]> {
      let q = k.selectFrom('door_cards').selectAll().orderBy('id');
      if (scope.sites !== null) q = q.where('device_group_id', 'in', [0, ...scope.sites]);
      const rows = await q.execute();
      const perms =
        rows.length === 0
          ? []
          : await k
              .selectFrom('door_permissions')
              .select(['card_id', 'door_id', 'profile'])
              .where(
                'card_id',
                'in',
                rows.map((r) => r.id),
              )
              .execute();
      return rows.map((r) => toCardRow(r, perms));
    },
    async createCard(input: CardInput, scope: SiteScope) {
      await siteExists(input.device_group_id, scope);
      await checkDoors(input, scope);
      if (await numberTaken(input.number, null)) throw conflict('doorAccess.errors.cardTaken');
      return k.transaction().execute(async (trx) => {
        const { doors, pin, ...fields } = input;
        const { id } = await trx
          .insertInto('door_cards')
          .values({ ...fields, pin: pin ?? 0, updated_at: now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const d of doors)
          await trx
            .insertInto('door_permissions')
            .values({ card_id: id, door_id: d.door_id, profile: d.profile, device_group_id: input.device_group_id })
            .execute();
        return { id };
      });
    },
    async updateCard(id: number, input: CardInput, scope: SiteScope) {
      await card(id, scope);
      await siteExists(input.device_group_id, scope);
      await checkDoors(input, scope);
      if (await numberTaken(input.number, id)) throw conflict('doorAccess.errors.cardTaken');
      await k.transaction().execute(async (trx) => {
        const { doors, pin, ...fields } = input;
        await trx
          .updateTable('door_cards')
          .set({ ...fields, ...(pin === undefined ? {} : { pin }), updated_at: now() })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('door_permissions').where('card_id', '=', id).execute();
        for (const d of doors)
          await trx
            .insertInto('door_permissions')
            .values({ card_id: id, door_id: d.door_id, profile: d.profile, device_group_id: input.device_group_id })
            .execute();
      });
      return null;
    },
    async removeCard(id: number, scope: SiteScope) {
      await card(id, scope);
      await k.transaction().execute(async (trx) => {
        await trx.deleteFrom('door_permissions').where('card_id', '=', id).execute();
        await trx.deleteFrom('door_cards').where('id', '=', id).execute();
      });
      return null;
    },
    /** Copies one card's permissions over every other card named (of the same site). */
    async copy(fromId: number, toIds: number[], scope: SiteScope) {
      const from = await card(fromId, scope);
      const targets = [...new Set(toIds.filter((t) => t !== fromId))];
      for (const t of targets) {
        const target = await card(t, scope);
        if (target.device_group_id !== from.device_group_id) throw badRequest('doorAccess.validation.doorOtherSite');
      }
      const perms = await k.selectFrom('door_permissions').selectAll().where('card_id', '=', fromId).execute();
      await k.transaction().execute(async (trx) => {
        for (const t of targets) {
          await trx.deleteFrom('door_permissions').where('card_id', '=', t).execute();
          for (const p of perms)
            await trx
              .insertInto('door_permissions')
              .values({ card_id: t, door_id: p.door_id, profile: p.profile, device_group_id: p.device_group_id })
              .execute();
          await trx.updateTable('door_cards').set({ updated_at: now() }).where('id', '=', t).execute();
        }
      });
      return { copied: targets.length };
    },
    async door(id: number, scope: SiteScope) {
      const row = await k.selectFrom('door_doors').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || !scope.has(row.device_group_id)) throw notFound('doorAccess.errors.doorNotFound');
      return row;
    },
    ...createDoorLogRows(db, clock),
    ...createPermissionRows(db, clock),
  };
};

export type DoorRows = ReturnType<typeof createDoorRows>;
