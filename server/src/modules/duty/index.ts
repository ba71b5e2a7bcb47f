import { dutyRoutes as r } from '@sitewatch/contract/duty';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import type { DutyRoster } from '../../notify/notifier.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import { type AccessService, holdsEverySite } from '../access/index.ts';
import { createDutyRepository } from './repository.ts';
import { createDutyService, type DutyCaller, type DutyService } from './service.ts';

/** Menus of migration 0017: 731 duty table and time schedule, 732 handover, 733 memorandum. */
const arrange = 731;
const change = 732;
const memo = 733;

/** The duty service over the database. */
export const createDuty = (deps: { db: Db; clock: () => number }): DutyService & { reload(): Promise<void> } => {
  const repo = createDutyRepository(deps.db, deps.clock);
  const service = createDutyService({ repo, zone: scheduleZone(), clock: deps.clock });
  // After a restore: the cached duty setting is read again.
  return Object.assign(service, { reload: () => repo.settings.reload() });
};

/**
 * Who is on duty for an alarm's site, for the notifier and the alarm pushes: null while shift
 * handover is disabled (the standard mode).
 */
export const dutyRosterOf = (service: DutyService): DutyRoster => ({
  onDuty: async (at, siteId) => ((await service.settings()).handover_enable ? service.onDutyIds(at, siteId) : null),
  // The browsers' alarm pop-ups: users whose e-mail is an on-duty contact's.
  onDutyUsers: async (at, siteId) =>
    (await service.settings()).handover_enable
      ? (await service.onDutyPeople(at, siteId)).flatMap((p) => (p.user_id === null ? [] : [p.user_id]))
      : null,
});

export const registerDuty = (
  app: FastifyInstance,
  deps: { db: Db; service: DutyService; clock: () => number; access: AccessService },
) => {
  const { service } = deps;
  const user = (request: FastifyRequest) => ({
    id: request.principal?.user_id ?? 0,
    name: request.principal?.user_name ?? '',
  });
  /** The caller's sites and contacts: every duty read and write is limited to them. */
  const caller = async (request: FastifyRequest): Promise<DutyCaller> => {
    const sites = await deps.access.sites(request);
    return {
      ...user(request),
      sites,
      everySite: await holdsEverySite(deps.db, sites),
      contacts: await deps.access.contacts(request),
    };
  };
  const p = (menu: number, func?: string) => ({ permission: func ? { menu, func } : { menu } });

  addRoute(app, r.shifts, async ({ request }) => service.shifts(await caller(request)), p(arrange));
  addRoute(
    app,
    r.addShift,
    async ({ body, request }) => service.addShift(body, await caller(request)),
    p(arrange, 'edit'),
  );
  addRoute(
    app,
    r.updateShift,
    async ({ params, body, request }) => service.updateShift(params.id, body, await caller(request)),
    p(arrange, 'edit'),
  );
  addRoute(
    app,
    r.deleteShift,
    async ({ params, request }) => service.deleteShift(params.id, await caller(request)),
    p(arrange, 'edit'),
  );
  addRoute(
    app,
    r.table,
    async ({ query, request }) => service.table(query.from, query.to, await caller(request)),
    p(arrange),
  );
  addRoute(
    app,
    r.addOverride,
    async ({ body, request }) => service.addOverride(body, await caller(request)),
    p(arrange, 'edit'),
  );
  addRoute(
    app,
    r.deleteEntry,
    async ({ params, request }) => service.deleteEntry(params.id, await caller(request)),
    p(arrange, 'edit'),
  );
  addRoute(app, r.rotate, async ({ body, request }) => service.rotate(body, await caller(request)), p(arrange, 'edit'));
  addRoute(app, r.onDuty, async ({ request }) => service.onDutyNow(await caller(request)), p(arrange));
  // One's own shifts: any signed-in user.
  addRoute(app, r.ical, async ({ request, reply }) => {
    const text = await service.ical(user(request).id);
    await reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="duty.ics"')
      .send(text);
    return null;
  });
  addRoute(
    app,
    r.memos,
    async ({ query, request }) => service.memos(query.from, query.to, await caller(request)),
    p(memo),
  );
  addRoute(app, r.addMemo, async ({ body, request }) => service.addMemo(body, await caller(request)), p(memo, 'edit'));
  addRoute(
    app,
    r.updateMemo,
    async ({ params, body, request }) => service.updateMemo(params.id, body, await caller(request)),
    p(memo, 'edit'),
  );
  addRoute(
    app,
    r.deleteMemo,
    async ({ params, request }) => service.deleteMemo(params.id, await caller(request)),
    p(memo, 'edit'),
  );
  addRoute(app, r.handovers, async ({ request }) => service.handovers(await caller(request)), p(change));
  addRoute(
    app,
    r.addHandover,
    async ({ body, request }) => service.addHandover(body, await caller(request)),
    p(change, 'edit'),
  );
  // The successor confirms what is handed to them: the page is enough, the check is theirs.
  addRoute(
    app,
    r.confirmHandover,
    async ({ params, request }) => service.confirmHandover(params.id, await caller(request)),
    p(change),
  );
  addRoute(
    app,
    r.deleteHandover,
    async ({ params, request }) => service.deleteHandover(params.id, await caller(request)),
    p(change, 'edit'),
  );
  // The duty table's members are contacts (those of the caller's grant): listed here so that arranging needs no contacts page.
  addRoute(app, r.members, async ({ request }) => service.members(await caller(request)), p(arrange));
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
    async ({ body, request }) => service.setSettings({ handover_enable: body.handover_enable }, await caller(request)),
    p(change, 'edit'),
  );
};
