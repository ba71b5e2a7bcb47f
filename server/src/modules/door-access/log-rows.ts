import {
  type CardFormat,
  cardDisplay,
  type DoorLogFilter,
  type DoorLogRow,
  doorLogExportLimit,
  type doorLogQuery,
} from '@sitewatch/contract/door-access';
import type { z } from 'zod';
import type { Db } from '../../db/kysely.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import type { ControllerCard, DoorEvent } from './controller.ts';
import { epochOfLocal } from './time.ts';

/** A card typed as its raw number or as facility:card (either Wiegand format), else null. */
const cardOfText = (text: string): number | null => {
  if (/^\d{1,10}$/.test(text)) return Number(text) <= 0xffffffff ? Number(text) : null;
  const pair = /^(\d{1,5}):(\d{1,5})$/.exec(text);
  if (!pair) return null;
  const [high, low] = [Number(pair[1]), Number(pair[2])];
  return high <= 0xffff && low <= 0xffff ? high * 0x10000 + low : null;
};

interface LogJoin {
  id: number;
  controller_id: number;
  controller_name: string;
  event_index: number;
  kind: string;
  granted: number;
  door: number;
  door_name: string | null;
  direction: string;
  card: number;
  format: string | null;
  holder: string | null;
  job_number: string | null;
  time: number;
  reason: number;
  gap_to: number | null;
}

const toLogRow = ({ format, ...r }: LogJoin): DoorLogRow => ({
  ...r,
  granted: r.granted === 1,
  door_name: r.door_name ?? '',
  card: r.card === 0 ? '' : cardDisplay(r.card, (format as CardFormat | null) ?? 'plain'),
  holder: r.holder ?? '',
  job_number: r.job_number ?? '',
});

/**
 * What the sync reads and writes (docs/door-access.md, "Log sync"): the cards each controller should
 * hold, the log (unique on controller and event index: an event read twice is written once), the
 * controller's cursor and whether it answers; and the log's reads with their filters.
 */
export const createDoorLogRows = (db: Db, clock: () => number) => {
  const k = db.kysely;
  const now = () => Math.floor(clock() / 1000);

  const joined = () =>
    k
      .selectFrom('door_logs')
      .innerJoin('door_controllers', 'door_controllers.id', 'door_logs.controller_id')
      .leftJoin('door_cards', (j) => j.onRef('door_cards.number', '=', 'door_logs.card').on('door_logs.card', '>', 0))
      .leftJoin('door_doors', (j) =>
        j
          .onRef('door_doors.controller_id', '=', 'door_logs.controller_id')
          .onRef('door_doors.number', '=', 'door_logs.door'),
      );

  /** The log narrowed to the caller's sites and the filters; a door of another site is a 404. */
  const filtered = async (query: DoorLogFilter, scope: SiteScope) => {
    if (query.start !== undefined && query.end !== undefined && query.end < query.start)
      throw badRequest('monitoring.validation.endBeforeStart');
    let q = joined();
    if (scope.sites !== null) q = q.where('door_logs.device_group_id', 'in', [0, ...scope.sites]);
    if (query.controller_id) q = q.where('door_logs.controller_id', '=', query.controller_id);
    if (query.door_id) {
      const door = await k.selectFrom('door_doors').selectAll().where('id', '=', query.door_id).executeTakeFirst();
      if (!door || !scope.has(door.device_group_id)) throw notFound('doorAccess.errors.doorNotFound');
      q = q.where('door_logs.controller_id', '=', door.controller_id).where('door_logs.door', '=', door.number);
    }
    if (query.kind) q = q.where('door_logs.kind', '=', query.kind);
    if (query.granted) q = q.where('door_logs.granted', '=', query.granted === 'true' ? 1 : 0);
    if (query.start !== undefined) q = q.where('door_logs.time', '>=', query.start);
    if (query.end !== undefined) q = q.where('door_logs.time', '<=', query.end);
    const person = query.person?.replace(/[%_\\]/g, '').trim();
    if (person) {
      const card = cardOfText(person);
      const like = `%${person}%`;
      const op = db.dialect === 'postgres' ? 'ilike' : 'like';
      q = q.where((eb) =>
        eb.or([
          eb('door_cards.holder', op, like),
          eb('door_cards.job_number', op, like),
          ...(card !== null ? [eb('door_logs.card', '=', card)] : []),
        ]),
      );
    }
    return q;
  };

  const ordered = (q: Awaited<ReturnType<typeof filtered>>) =>
    q
      .select([
        'door_logs.id',
        'door_logs.controller_id',
        'door_controllers.name as controller_name',
        'door_logs.event_index',
        'door_logs.kind',
        'door_logs.granted',
        'door_logs.door',
        'door_doors.nickname as door_name',
        'door_logs.direction',
        'door_logs.card',
        'door_cards.format',
        'door_cards.holder',
        'door_cards.job_number',
        'door_logs.time',
        'door_logs.reason',
        'door_logs.gap_to',
      ])
      .orderBy('door_logs.time', 'desc')
      .orderBy('door_logs.event_index', 'desc')
      .orderBy('door_logs.id', 'desc');

  return {
    /** What controller `id` should hold: every card with a permission over one of its doors. */
    async desiredCards(controllerId: number): Promise<Map<number, ControllerCard>> {
      const rows = await k
        .selectFrom('door_permissions')
        .innerJoin('door_doors', 'door_doors.id', 'door_permissions.door_id')
        .innerJoin('door_cards', 'door_cards.id', 'door_permissions.card_id')
        .select([
          'door_cards.number',
          'door_cards.valid_from',
          'door_cards.valid_to',
          'door_cards.pin',
          'door_doors.number as door',
          'door_permissions.profile',
        ])
        .where('door_doors.controller_id', '=', controllerId)
        .execute();
      const out = new Map<number, ControllerCard>();
      for (const r of rows) {
        const c = out.get(r.number) ?? { card: r.number, from: r.valid_from, to: r.valid_to, doors: {}, pin: r.pin };
        c.doors[r.door] = r.profile >= 2 ? r.profile : true;
        out.set(r.number, c);
      }
      return out;
    },
    /** Writes events and gaps once each (unique on controller and index), then moves the cursor. */
    async recordEvents(
      ctrl: { id: number; device_group_id: number },
      events: DoorEvent[],
      gaps: Array<{ from: number; to: number }>,
      through: number,
    ) {
      const rows = [
        ...events.map((e) => ({
          controller_id: ctrl.id,
          device_group_id: ctrl.device_group_id,
          event_index: e.index,
          kind: e.kind === 'swipe' || e.kind === 'door' || e.kind === 'alarm' ? e.kind : 'door',
          granted: e.granted ? 1 : 0,
          door: e.door,
          direction: e.direction,
          card: e.card,
          time: e.time ? epochOfLocal(e.time) : now(),
          reason: e.reason,
          gap_to: null,
        })),
        ...gaps.map((g) => ({
          controller_id: ctrl.id,
          device_group_id: ctrl.device_group_id,
          event_index: g.from,
          kind: 'gap',
          granted: 0,
          door: 0,
          direction: 'unknown',
          card: 0,
          time: now(),
          reason: 0,
          gap_to: g.to,
        })),
      ];
      for (let i = 0; i < rows.length; i += 400)
        await k
          .insertInto('door_logs')
          .values(rows.slice(i, i + 400))
          .onConflict((oc) => oc.columns(['controller_id', 'event_index']).doNothing())
          .execute();
      await k
        .updateTable('door_controllers')
        .set({ last_event_index: through })
        .where('id', '=', ctrl.id)
        .where('last_event_index', '<=', through)
        .execute();
    },
    async setOnline(id: number, online: boolean) {
      await k
        .updateTable('door_controllers')
        .set({ online: online ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
    /** One page of the log, newest first, with the filters of docs/door-access.md ("Log pages"). */
    async logs(query: z.output<typeof doorLogQuery>, scope: SiteScope) {
      const q = await filtered(query, scope);
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await ordered(q)
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size)
        .execute();
      return { total: Number(total), list: rows.map(toLogRow) };
    },
    /** Every row of the filtered log (at most `doorLogExportLimit`), newest first, for the export. */
    async logsForExport(query: DoorLogFilter, scope: SiteScope) {
      const rows = await ordered(await filtered(query, scope))
        .limit(doorLogExportLimit)
        .execute();
      return rows.map(toLogRow);
    },
  };
};
