import { contactInput } from '@sitewatch/contract/notify';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser, useServiceKit } from '../../../test/helpers/service-kit.ts';
import { AppError } from '../../http/errors.ts';
import { fromWallTime } from '../../schedule/repeat.ts';
import { createDutyRepository } from './repository.ts';
import { createDutyService, type DutyCaller } from './service.ts';

/**
 * Duty's rules over their real repository (SQLite) and a clock the test moves: who is on duty is
 * read at the clock's instant (a night shift runs past midnight, an override wins over the rotation,
 * the rotation hands over week by week), and a handover is stamped and confirmed at the clock's time.
 */
const zone = 'Asia/Shanghai';
const at = (d: number, h: number, mi = 0) => fromWallTime({ y: 2026, mo: 3, d, h, mi, s: 0 }, zone);
/** A caller granted every site and contact (the site rules are tested through HTTP, site-scoping.int). */
const person = (id: number, name = ''): DutyCaller => ({ id, name, sites: null, everySite: true, contacts: null });

describe('duty service', () => {
  // Monday 2 March 2026, 10:00 in Shanghai.
  const kit = useServiceKit(at(2, 10));
  const ids = { jia: 0, yi: 0, day: 0, night: 0, shifter: 0, successor: 0 };
  const service = () =>
    createDutyService({ repo: createDutyRepository(kit.db, kit.clock.now), zone, clock: kit.clock.now });
  const onDutyNow = async () => (await service().onDutyNow(person(0))).map((e) => `${e.shift_name} ${e.contact_name}`);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (err: unknown) => (err instanceof AppError ? err.key : String(err)),
    );

  beforeAll(async () => {
    const contact = async (name: string) =>
      (
        await kit.db.kysely
          .insertInto('contacts')
          .values({ ...contactInput.parse({ name }), duty: 0, enable: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.jia = await contact('甲');
    ids.yi = await contact('乙');
    const s = service();
    ids.day = (await s.addShift({ name: '白班', start: '08:00', end: '20:00', device_group_id: null }, person(0))).id;
    ids.night = (await s.addShift({ name: '夜班', start: '20:00', end: '08:00', device_group_id: null }, person(0))).id;
    // 甲 then 乙 week by week on days; 乙 on nights; 甲 covers tonight as a one-off.
    await s.rotate(
      {
        shift_id: ids.day,
        contact_ids: [ids.jia, ids.yi],
        start_date: '2026-03-02',
        weeks: 1,
        horizon_weeks: 2,
      },
      person(0),
    );
    await s.rotate(
      {
        shift_id: ids.night,
        contact_ids: [ids.yi],
        start_date: '2026-03-02',
        weeks: 1,
        horizon_weeks: 2,
      },
      person(0),
    );
    await s.addOverride({ date: '2026-03-02', shift_id: ids.night, contact_ids: [ids.jia] }, person(0));
    ids.shifter = await insertUser(kit.db, 'shifter');
    ids.successor = await insertUser(kit.db, 'successor');
  });

  it('answers who is on duty at the clock’s instant: shifts, the night past midnight, the override, the next week', async () => {
    expect(await onDutyNow()).toEqual(['白班 甲']);
    await kit.clock.advanceTo(at(2, 19, 59));
    expect(await onDutyNow()).toEqual(['白班 甲']);
    await kit.clock.advanceTo(at(2, 20));
    expect(await onDutyNow()).toEqual(['夜班 甲']);
    // Still Monday's night shift at 07:59 on Tuesday; the rotation's 乙 takes Tuesday night.
    await kit.clock.advanceTo(at(3, 7, 59));
    expect(await onDutyNow()).toEqual(['夜班 甲']);
    await kit.clock.advanceTo(at(3, 21));
    expect(await onDutyNow()).toEqual(['夜班 乙']);
    // The second week's days are 乙's.
    await kit.clock.advanceTo(at(9, 10));
    expect(await onDutyNow()).toEqual(['白班 乙']);
    expect(await service().onDutyIds(Math.floor(at(2, 10) / 1000))).toEqual([ids.jia]);
    // Past the rotation's horizon nobody is on duty.
    await kit.clock.advanceTo(at(16, 10));
    expect(await onDutyNow()).toEqual([]);
  });

  it('stamps a handover at the clock’s time; only its successor confirms it, once, when the clock says', async () => {
    const s = service();
    const shifter = person(ids.shifter, 'shifter');
    expect(
      await refusal(s.addHandover({ successor_id: ids.shifter, events: '无', device_group_id: null }, shifter)),
    ).toBe('duty.selfHandover');
    const h = await s.addHandover(
      { successor_id: ids.successor, events: 'UPS 告警未恢复', device_group_id: null },
      shifter,
    );
    expect(h).toMatchObject({ status: 0, handover_time: Math.floor(kit.clock.now() / 1000), confirmed_at: null });
    await kit.clock.advance(15 * 60_000);
    expect(await refusal(s.confirmHandover(h.id, person(ids.shifter)))).toBe('duty.notSuccessor');
    const confirmed = await s.confirmHandover(h.id, person(ids.successor));
    expect(confirmed.confirmed_at).toBe(h.handover_time + 15 * 60);
    expect(await refusal(s.confirmHandover(h.id, person(ids.successor)))).toBe('duty.confirmed');
    expect(await refusal(s.deleteHandover(h.id, shifter))).toBe('duty.confirmed');
  });

  it('stamps memos at the clock’s time and keeps a range within a year', async () => {
    const s = service();
    const memo = await s.addMemo(
      { date: '2026-03-16', content: '空调滤网待更换', device_group_id: null },
      person(ids.shifter, 'shifter'),
    );
    expect(memo.create_time).toBe(Math.floor(kit.clock.now() / 1000));
    expect((await s.memos('2026-03-01', '2026-03-31', person(ids.shifter))).map((m) => m.content)).toEqual([
      '空调滤网待更换',
    ]);
    expect(await refusal(s.memos('2026-03-31', '2026-03-01', person(ids.shifter)))).toBe('duty.badRange');
    expect(await refusal(s.memos('2026-01-01', '2027-01-03', person(ids.shifter)))).toBe('duty.badRange');
  });
});
