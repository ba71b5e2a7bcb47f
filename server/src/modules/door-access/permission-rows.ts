import { type CardFormat, cardDisplay, type doorPermissionInput } from '@sitewatch/contract/door-access';
import type { z } from 'zod';
import type { Db } from '../../db/kysely.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';

/**
 * /door_permission (docs/door-access.md, "Permission page"): permissions seen from the doors. A
 * door's cards are set as a whole; each must be of the door's site. The next push gives each
 * controller the difference, as for a card's own edit.
 */
export const createPermissionRows = (db: Db, clock: () => number) => {
  const k = db.kysely;
  return {
    async permissions(query: { door_id?: number | undefined }, scope: SiteScope) {
      let q = k
        .selectFrom('door_permissions')
        .innerJoin('door_cards', 'door_cards.id', 'door_permissions.card_id')
        .select([
          'door_permissions.card_id',
          'door_permissions.door_id',
          'door_permissions.profile',
          'door_cards.holder',
          'door_cards.job_number',
          'door_cards.department',
          'door_cards.number',
          'door_cards.format',
          'door_cards.valid_from',
          'door_cards.valid_to',
        ])
        .orderBy('door_permissions.door_id')
        .orderBy('door_cards.holder')
        .orderBy('door_cards.id');
      if (scope.sites !== null) q = q.where('door_permissions.device_group_id', 'in', [0, ...scope.sites]);
      if (query.door_id) q = q.where('door_permissions.door_id', '=', query.door_id);
      const rows = await q.execute();
      return {
        list: rows.map(({ number, format, ...r }) => ({ ...r, display: cardDisplay(number, format as CardFormat) })),
      };
    },
    async setDoorPermissions(doorId: number, input: z.output<typeof doorPermissionInput>, scope: SiteScope) {
      const door = await k.selectFrom('door_doors').selectAll().where('id', '=', doorId).executeTakeFirst();
      if (!door || !scope.has(door.device_group_id)) throw notFound('doorAccess.errors.doorNotFound');
      const ids = input.cards.map((c) => c.card_id);
      const found =
        ids.length === 0
          ? []
          : await k.selectFrom('door_cards').select(['id', 'device_group_id']).where('id', 'in', ids).execute();
      if (found.length !== ids.length || found.some((c) => !scope.has(c.device_group_id)))
        throw notFound('doorAccess.errors.cardNotFound');
      if (found.some((c) => c.device_group_id !== door.device_group_id))
        throw badRequest('doorAccess.validation.doorOtherSite');
      const now = Math.floor(clock() / 1000);
      await k.transaction().execute(async (trx) => {
        const held = await trx.selectFrom('door_permissions').select('card_id').where('door_id', '=', doorId).execute();
        await trx.deleteFrom('door_permissions').where('door_id', '=', doorId).execute();
        for (const c of input.cards)
          await trx
            .insertInto('door_permissions')
            .values({ card_id: c.card_id, door_id: doorId, profile: c.profile, device_group_id: door.device_group_id })
            .execute();
        // The cards that gained or lost the door are changed cards.
        const touched = [...new Set([...ids, ...held.map((h) => h.card_id)])];
        if (touched.length > 0)
          await trx.updateTable('door_cards').set({ updated_at: now }).where('id', 'in', touched).execute();
      });
      return { cards: input.cards.length };
    },
  };
};
