import { monitorState } from '@sitewatch/contract/monitoring';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedEstate } from '../../../../bench/estate.ts';
import { useServiceKit } from '../../../test/helpers/service-kit.ts';
import { createPending, trackedTimers } from '../../clock/timers.ts';
import { AppError } from '../../http/errors.ts';
import { createScheduler, type Scheduler } from '../../schedule/scheduler.ts';
import { createInspectionRepository } from './repository.ts';
import { createInspectionService, type InspectionService, planTask } from './service.ts';

/**
 * Inspection's rules over their real repository (SQLite), with the scheduler of its plans on a clock
 * the test moves: a daily plan runs when due and not before, once a day; a scheduler stopped for days
 * runs it once when started again; a report with nothing abnormal may pass by itself; a review is
 * stamped at the clock's time, once.
 */
const hour = 3_600_000;
const start = Date.UTC(2026, 2, 2, 8, 0, 0);

describe('inspection service', () => {
  const kit = useServiceKit(start);
  const ids = { site: 0, items: [] as number[], plan: 0 };
  let scheduler: Scheduler;
  let service: InspectionService;
  const seconds = () => Math.floor(kit.clock.now() / 1000);
  const autoReports = async () => (await service.reports({ page: 1, limit: 100, kind: 'auto' }, null)).data;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (err: unknown) => (err instanceof AppError ? err.key : String(err)),
    );
  /** A scheduler on the kit's clock, looking for due plans every 15 s, as the app's does. */
  const startScheduler = () => {
    const work = createPending();
    kit.clock.settleWith(() => work.settled());
    scheduler = createScheduler({
      db: kit.db,
      clock: kit.clock.now,
      timers: trackedTimers(kit.clock.timers, work),
      zone: 'UTC',
      intervalMs: 15_000,
    });
    service = createInspectionService({
      repo: createInspectionRepository(kit.db, kit.clock.now),
      scheduler,
      clock: kit.clock.now,
    });
    scheduler.on(planTask, (planId) => service.runPlan(planId));
    scheduler.start();
  };

  beforeAll(async () => {
    const estate = await seedEstate(kit.db, { items: 3, perDevice: 3, siteName: '机房' });
    ids.site = estate.site;
    ids.items = estate.devices[0]!.items;
    const k = kit.db.kysely;
    await k.updateTable('items').set({ value: 22.5, state: monitorState.normal }).execute();
    await k
      .updateTable('items')
      .set({ value: 41, state: monitorState.abnormal })
      .where('id', '=', ids.items[2]!)
      .execute();
    startScheduler();
  });

  it('runs a daily plan when it is due and not before, then once a day', async () => {
    const plan = await service.addPlan(
      {
        name: '每日巡检',
        device_group_ids: [ids.site],
        rule: 'daily',
        start_time: seconds() + 3600,
        enable: true,
        t: undefined,
      },
      null,
    );
    ids.plan = plan.id;
    expect(plan.next_run).toBe(seconds() + 3600);
    await kit.clock.advance(hour - 1_000);
    expect(await autoReports()).toEqual([]);
    await kit.clock.advance(1_000);
    const [first] = await autoReports();
    expect(first).toMatchObject({
      inspector: '每日巡检',
      items: 3,
      abnormal: 1,
      status: 0,
      summary: '1/3: dev-0/item-2',
    });
    expect(first!.create_time).toBe(plan.start_time);
    await kit.clock.advance(24 * hour);
    expect((await autoReports()).map((r) => r.create_time - plan.start_time)).toEqual([86_400, 0]);
    expect(await service.plan(plan.id, null)).toMatchObject({
      last_run: plan.start_time + 86_400,
      next_run: plan.start_time + 2 * 86_400,
    });
  });

  it('a scheduler stopped for three days runs the plan once when started again', async () => {
    await scheduler.stop();
    await kit.clock.advance(3 * 24 * hour);
    expect(await autoReports()).toHaveLength(2);
    startScheduler();
    // Its first look is at once (a timer of 0 ms): the runs missed collapse into one.
    await kit.clock.advance(0);
    const reports = await autoReports();
    expect(reports).toHaveLength(3);
    expect(reports[0]!.create_time).toBe(seconds());
    const plan = await service.plan(ids.plan, null);
    expect(plan.next_run! - plan.start_time).toBe(5 * 86_400);
    await kit.clock.advance(15_000);
    expect(await autoReports()).toHaveLength(3);
  });

  it('passes a report with nothing abnormal by itself when told to; a review is stamped once', async () => {
    await service.setReport({ auto_pass_normal: true, keep_days: 365 });
    await kit.db.kysely.updateTable('items').set({ state: monitorState.normal }).execute();
    const before = seconds();
    await kit.clock.advanceTo((await service.plan(ids.plan, null)).next_run! * 1000);
    const [passed] = await autoReports();
    expect(passed).toMatchObject({ abnormal: 0, status: 1, reviewed_at: passed!.create_time });
    expect(passed!.create_time).toBeGreaterThan(before);

    const manual = await service.manual(
      {
        device_group_ids: [ids.site],
        summary: '巡检正常',
        marks: [{ item_id: ids.items[0]!, abnormal: true, note: '异响' }],
        t: undefined,
      },
      { id: 1, name: 'admin' },
      null,
    );
    expect(manual).toMatchObject({ kind: 'manual', status: 0, abnormal: 1, reviewed_at: null });
    await kit.clock.advance(10 * 60_000);
    const reviewed = await service.review(manual.id, { result: 'passed', comment: '' }, { id: 1, name: 'admin' }, null);
    expect(reviewed.reviewed_at).toBe(manual.create_time + 600);
    expect(
      await refusal(service.review(manual.id, { result: 'failed', comment: '' }, { id: 1, name: 'admin' }, null)),
    ).toBe('inspection.reviewed');
  });

  it('writes nothing when intelligent inspection is closed, and nothing once the plan is deleted', async () => {
    const count = (await autoReports()).length;
    await service.setPatrol({ enable: true, intelligent_enable: false });
    await kit.clock.advance(24 * hour);
    expect(await autoReports()).toHaveLength(count);
    await service.setPatrol({ enable: true, intelligent_enable: true });
    await service.deletePlan(ids.plan, null);
    await kit.clock.advance(24 * hour);
    expect(await autoReports()).toHaveLength(count);
    await scheduler.stop();
    expect(kit.clock.pending()).toBe(0);
  });
});
