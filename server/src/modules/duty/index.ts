import { dutyRoutes as r } from '@sitewatch/contract/duty';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import type { DutyRoster } from '../../notify/notifier.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import { createDutyRepository } from './repository.ts';
import { createDutyService, type DutyService } from './service.ts';

/** Menus of migration 0017: 731 duty table and time schedule, 732 handover, 733 memorandum. */
const arrange = 731;
const change = 732;
const memo = 733;

/** The duty service over the database. */
export const createDuty = (deps: { db: Db; clock: () => number }): DutyService =>
  createDutyService({ repo: createDutyRepository(deps.db, deps.clock), zone: scheduleZone(), clock: deps.clock });

/** Who is on duty, for the notifier and the alarm pushes: null while shift handover is disabled (the standard mode). */
export const dutyRosterOf = (service: DutyService): DutyRoster => ({
  onDuty: async (at) => ((await service.settings()).handover_enable ? service.onDutyIds(at) : null),
  // The browsers' alarm pop-ups: users whose e-mail is an on-duty contact's.
  onDutyUsers: async (at) =>
    (await service.settings()).handover_enable
      ? (await service.onDutyPeople(at)).flatMap((p) => (p.user_id === null ? [] : [p.user_id]))
      : null,
});

export const registerDuty = (app: FastifyInstance, deps: { db: Db; service: DutyService; clock: () => number }) => {
  const { service } = deps;
  const user = (request: FastifyRequest) => ({
    id: request.principal?.user_id ?? 0,
    name: request.principal?.user_name ?? '',
  });
  const p = (menu: number, func?: string) => ({ permission: func ? { menu, func } : { menu } });

  addRoute(app, r.shifts, async () => service.shifts(), p(arrange));
  addRoute(app, r.addShift, async ({ body }) => service.addShift(body), p(arrange, 'edit'));
  addRoute(app, r.updateShift, async ({ params, body }) => service.updateShift(params.id, body), p(arrange, 'edit'));
  addRoute(app, r.deleteShift, async ({ params }) => service.deleteShift(params.id), p(arrange, 'edit'));
  addRoute(app, r.table, async ({ query }) => service.table(query.from, query.to), p(arrange));
  addRoute(app, r.addOverride, async ({ body }) => service.addOverride(body), p(arrange, 'edit'));
  addRoute(app, r.deleteEntry, async ({ params }) => service.deleteEntry(params.id), p(arrange, 'edit'));
  addRoute(app, r.rotate, async ({ body }) => service.rotate(body), p(arrange, 'edit'));
  addRoute(app, r.onDuty, async () => service.onDutyNow(), p(arrange));
  // One's own shifts: any signed-in user.
  addRoute(app, r.ical, async ({ request, reply }) => {
    const text = await service.ical(user(request).id);
    await reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="duty.ics"')
      .send(text);
    return null;
  });
  addRoute(app, r.memos, async ({ query }) => service.memos(query.from, query.to), p(memo));
  addRoute(app, r.addMemo, async ({ body, request }) => service.addMemo(body, user(request)), p(memo, 'edit'));
  addRoute(app, r.updateMemo, async ({ params, body }) => service.updateMemo(params.id, body), p(memo, 'edit'));
  addRoute(app, r.deleteMemo, async ({ params }) => service.deleteMemo(params.id), p(memo, 'edit'));
  addRoute(app, r.handovers, async () => service.handovers(), p(change));
  addRoute(
    app,
    r.addHandover,
    async ({ body, request }) => service.addHandover(body, user(request)),
    p(change, 'edit'),
  );
  // The successor confirms what is handed to them: the page is enough, the check is theirs.
  addRoute(
    app,
    r.confirmHandover,
    async ({ params, request }) => service.confirmHandover(params.id, user(request)),
    p(change),
  );
  addRoute(
    app,
    r.deleteHandover,
    async ({ params, request }) => service.deleteHandover(params.id, user(request)),
    p(change, 'edit'),
  );
  // The duty table's members are contacts: listed here so that arranging needs no contacts page.
  addRoute(
    app,
    r.members,
    async () =>
      (
        await deps.db.kysely
          .selectFrom('contacts')
          .select(['id', 'name'])
          .where('enable', '=', 1)
          .orderBy('id')
          .execute()
      ).map((c) => ({ id: c.id, name: c.name })),
    p(arrange),
  );
  addRoute(
    app,
    r.successors,
    async ({ request }) =>
      (
        await deps.db.kysely
          .selectFrom('users')
          .select(['id', 'user_name', 'alias'])
          .where('enable', '=', 1)
          .orderBy('id')
          .execute()
      )
        .filter((u) => u.id !== user(request).id)
        .map((u) => ({ id: u.id, name: u.alias || u.user_name })),
    p(change),
  );
  addRoute(app, r.getSettings, async () => service.settings(), p(change));
  // Every signed-in user: the shell asks before showing alarms raised while it was away.
  addRoute(app, r.me, async ({ request }) => {
    const { handover_enable } = await service.settings();
    const id = user(request).id;
    const people = handover_enable ? await service.onDutyPeople(Math.floor(deps.clock() / 1000)) : [];
    return { handover_enable, on_duty: people.some((x) => x.user_id === id) };
  });
  addRoute(
    app,
    r.setSettings,
    async ({ body }) => service.setSettings({ handover_enable: body.handover_enable }),
    p(change, 'edit'),
  );
};
