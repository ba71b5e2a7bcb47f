import ModbusRTU from 'modbus-serial';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kernel } from '../src/area.ts';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import type { Dialect } from '../src/db/kysely.ts';
import { createTaskScheduler } from '../src/modules/automation/tasks.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { pymodbusPeer } from './helpers/pymodbus.ts';

/**
 * Automation against a real Modbus TCP server (pymodbus) on loopback (issue 32, "Must show"): a
 * linkage rule on a room temperature the collector polls writes the air conditioner's holding
 * register within 2 s of its condition holding and writes it back on recovery; an item's overrun
 * and recovery actions run on the alarm engine's raised and recovered; a timed task runs on
 * schedule and is in its log and never runs twice across a restart; refused saves change nothing.
 * Everything runs on the app's manual clock (advance it, then settled()).
 */

const TEMP_REGISTER = 0;
const AC_REGISTER = 10;
const tables = ['automation_actions', 'automation_linkages', 'automation_tasks', 'automation_runs'] as const;

const useRig = (dialect: Dialect) => {
  const t = useManualTestApp(dialect, { drivers: { 'modbus-tcp': modbusTcpDriver } });
  let peer: Awaited<ReturnType<typeof pymodbusPeer>>;
  const reader = new ModbusRTU();
  const ids = { site: 0, device: 0, temp: 0, ac: 0, acOn: 0, acOff: 0 };
  const itemBodies = new Map<number, Record<string, unknown>>();

  const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await send(method, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const counts = async () => {
    const k = t.database.db.kysely;
    const out: Record<string, number> = {};
    for (const table of tables) {
      const row = await k
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  };
  const acRegister = async () => (await reader.readHoldingRegisters(AC_REGISTER, 1)).data[0];
  /** Advances the clock a second at a time until the register reads `want`; the ms it took. */
  const untilRegister = async (want: number, limitMs: number) => {
    let waited = 0;
    while ((await acRegister()) !== want && waited < limitMs) {
      await t.clock.advance(250);
      await t.sitewatch.settled();
      waited += 250;
    }
    return { value: await acRegister(), waited };
  };
  const setTemperature = (value: number) => peer.set('input', { address: TEMP_REGISTER, registers: [value] });
  const addItem = async (name: string, source: object) => {
    const body = {
      device_id: ids.device,
      name,
      value_type: 1,
      threshold_min: 10,
      threshold_max: 28,
      recovery_point: 0,
      overrun_point: 0,
      source: { kind: 'modbus', scale: 1, ...source },
    };
    const item = await call('POST', 'setting/items', body);
    itemBodies.set(item.id, body);
    return item.id as number;
  };
  const writeAction = (name: string, command: string, value: number) => ({
    name,
    device_group_id: ids.site,
    preset: 'air_conditioner',
    commands: [{ kind: 'item.write', command, params: { item_id: ids.ac, value } }],
  });

  beforeAll(async () => {
    peer = await pymodbusPeer({
      holding: [{ address: AC_REGISTER, registers: [0] }],
      input: [{ address: TEMP_REGISTER, registers: [22] }],
    });
    await reader.connectTCP('127.0.0.1', { port: peer.port });
    reader.setTimeout(2000);
    ids.site = (await call('POST', 'setting/device_groups', { name: '联动机房', weight: 1 })).id;
    ids.device = (
      await call('POST', 'setting/devices', {
        name: 'io-module',
        device_group_id: ids.site,
        driver: 'modbus-tcp',
        code: 'power_meter',
        ip: '127.0.0.1',
        port: peer.port,
        check_interval: 1,
        options: { timeout_ms: 1500 },
      })
    ).id;
    ids.temp = await addItem('机房温度', { function: 4, register: TEMP_REGISTER, data_type: 'int16' });
    ids.ac = await addItem('空调开关', { function: 3, register: AC_REGISTER, data_type: 'uint16' });
    // The AC switch item is a setpoint here: never in alarm.
    await call('PUT', `setting/items/${ids.ac}`, { ...itemBodies.get(ids.ac), threshold_min: -1, threshold_max: 1e6 });
    ids.acOn = (await call('POST', 'setting/actions', writeAction('空调开', 'power_on', 1))).id;
    ids.acOff = (await call('POST', 'setting/actions', writeAction('空调关', 'power_off', 0))).id;
    await t.sitewatch.start();
    await t.clock.advance(1_000);
  }, 30_000);
  afterAll(() => {
    reader.close(() => undefined);
    peer?.stop();
  });
  return { t, ids, send, call, counts, acRegister, untilRegister, setTemperature, itemBodies, writeAction };
};
type Rig = ReturnType<typeof useRig>;

const refusals = (r: Rig) => {
  const { ids, send, counts, acRegister, writeAction } = r;
  it('refuses bad saves with the spec message and changes nothing', async () => {
    const before = await counts();
    const refused = async (method: 'POST' | 'PUT', url: string, body: object, message: RegExp) => {
      const res = await send(method, url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    };
    await refused('POST', 'setting/actions', { ...writeAction('空', 'power_on', 1), commands: [] }, /动作不能为空/);
    await refused('POST', 'setting/actions', { ...writeAction('', 'power_on', 1) }, /名称不能为空/);
    await refused(
      'POST',
      'setting/actions',
      { ...writeAction('x', 'power_on', 1), commands: [{ kind: 'door.open', params: {} }] },
      /请选择命令类型/,
    );
    // A preset's command must be one of its own.
    await refused('POST', 'setting/actions', writeAction('x', 'dehumidify', 1), /不属于所选动作类型/);
    // The register holds 0–65535.
    await refused('POST', 'setting/actions', writeAction('x', 'power_on', -5), /不能写入该值/);
    await refused('PUT', `setting/actions/${ids.acOn}`, writeAction('x', 'power_on', 70000), /不能写入该值/);
    const rule = {
      name: 'r',
      device_group_id: ids.site,
      conditions: [{ item_id: ids.temp, op: 'gt', value: 28 }],
      action_id: ids.acOn,
      recovery_action_id: ids.acOn,
    };
    await refused('POST', 'setting/auto', rule, /越限动作不能与恢复动作相同/);
    await refused('POST', 'setting/auto', { ...rule, action_id: undefined, recovery_action_id: 0 }, /动作不能为空/);
    // Loop guard: the rule would write the item its own condition reads.
    await refused(
      'POST',
      'setting/auto',
      { ...rule, conditions: [{ item_id: ids.ac, op: 'eq', value: 0 }], recovery_action_id: 0 },
      /不能写入其条件所读的监控项/,
    );
    const task = { name: 'c', device_group_id: ids.site, action_id: ids.acOn, repeat: 'cron', cron: 'every minute' };
    await refused('POST', 'setting/cron', task, /Cron表达式不正确/);
    await refused('POST', 'setting/cron', { ...task, repeat: 'daily', cron: '' }, /开始时间不能为空/);
    expect(await counts()).toEqual(before);
    expect(await acRegister()).toBe(0);
  });
};

const linkageRule = (r: Rig) => {
  const { t, ids, call, untilRegister, setTemperature } = r;
  it('a linkage rule writes the holding register within 2 s of its condition holding, and back on recovery', async () => {
    const rule = await call('POST', 'setting/auto', {
      name: '高温开空调',
      device_group_id: ids.site,
      match: 'all',
      conditions: [{ item_id: ids.temp, op: 'gt', value: 28 }],
      hold_seconds: 0,
      action_id: ids.acOn,
      recovery_action_id: ids.acOff,
    });
    expect(rule).toMatchObject({ enable: true, active: false });
    await setTemperature(31);
    const on = await untilRegister(1, 2_000);
    expect(on.value).toBe(1);
    expect(on.waited).toBeLessThanOrEqual(2_000);
    expect((await call('GET', `setting/auto/${rule.id}`)).active).toBe(true);

    await setTemperature(24);
    const off = await untilRegister(0, 2_000);
    expect(off).toMatchObject({ value: 0 });
    expect(off.waited).toBeLessThanOrEqual(2_000);

    // Each run and each command's result is logged.
    const runs = await call('GET', `setting/motion_management/${ids.acOn}?limit=5`);
    expect(runs.data[0]).toMatchObject({ trigger: 'linkage', trigger_id: rule.id, ok: true, dry_run: false });
    expect(runs.data[0].results[0]).toMatchObject({ kind: 'item.write', ok: true });
    const logged = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('module', '=', 'automation')
      .where('action', '=', 'run')
      .execute();
    expect(logged.length).toBeGreaterThanOrEqual(2);

    // Disabled, it acts no more.
    expect((await call('POST', 'setting/auto/update_state', { id: rule.id, enable: false })).enable).toBe(false);
    await setTemperature(33);
    expect((await untilRegister(1, 1_500)).value).toBe(0);
    await setTemperature(22);
    await t.clock.advance(1_000);
  }, 30_000);
};

const itemActions = (r: Rig) => {
  const { t, ids, send, call, untilRegister, setTemperature, itemBodies } = r;
  it('runs an item’s overrun action when its alarm is raised and its recovery action when it recovers', async () => {
    await call('PUT', `setting/items/${ids.temp}`, {
      ...itemBodies.get(ids.temp),
      overrun_action_id: ids.acOn,
      recovery_action_id: ids.acOff,
    });
    await t.clock.advance(1_000);
    await setTemperature(35);
    expect((await untilRegister(1, 5_000)).value).toBe(1);
    await setTemperature(20);
    expect((await untilRegister(0, 5_000)).value).toBe(0);
    const runs = await call('GET', `setting/motion_management/${ids.acOn}?limit=1`);
    expect(runs.data[0]).toMatchObject({ trigger: 'overrun', ok: true });
    // An action in use cannot be deleted.
    expect((await send('DELETE', `setting/actions/${ids.acOn}`)).statusCode).toBe(409);
  }, 30_000);

  it('runs an item’s confirm action when a person confirms its alarm (a buzzer on with the alarm, off on confirm)', async () => {
    await call('PUT', `setting/items/${ids.temp}`, {
      ...itemBodies.get(ids.temp),
      overrun_action_id: ids.acOn,
      recovery_action_id: 0,
      confirm_action_id: ids.acOff,
    });
    await t.clock.advance(1_000);
    await setTemperature(36);
    expect((await untilRegister(1, 5_000)).value).toBe(1);
    const open = (await call('GET', 'review')).data as { status_id: number; item_id: number }[];
    const alarm = open.find((a) => a.item_id === ids.temp)!;
    await call('POST', 'warning_operation', {
      alarm_action: 0,
      remarks: '已到场',
      item_id: ids.temp,
      status_id: alarm.status_id,
    });
    expect((await untilRegister(0, 5_000)).value).toBe(0);
    const runs = await call('GET', `setting/motion_management/${ids.acOff}?limit=1`);
    expect(runs.data[0]).toMatchObject({ trigger: 'confirm', trigger_id: alarm.status_id, ok: true });
    await setTemperature(20);
    await t.clock.advance(5_000);
  }, 30_000);
};

const manualRuns = (r: Rig) => {
  const { ids, call, acRegister } = r;
  it('runs a manual dry run that reaches nothing, and a real run as the caller', async () => {
    const dry = await call('POST', 'pub/remote_control', { action_id: ids.acOn, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, ok: true, trigger: 'manual', user_name: 'admin' });
    // A coded detail, named in the reader's language by the page (docs/automation.md, "Run details").
    expect(JSON.parse(dry.results[0].detail)).toEqual({
      code: 'wouldWrite',
      params: { what: expect.stringMatching(/^io-module \/ 空调开关 ← 1/) },
    });
    expect(await acRegister()).toBe(0);
    const run = await call('POST', 'pub/remote_control', { action_id: ids.acOn });
    expect(run).toMatchObject({ ok: true, dry_run: false });
    expect(await acRegister()).toBe(1);
    await call('POST', 'pub/remote_control', { action_id: ids.acOff });
    expect(await acRegister()).toBe(0);
  });
};

const timedTasks = (r: Rig) => {
  const { t, ids, call, acRegister } = r;
  it('runs a timed task on schedule, logs it, and never twice across a restart', async () => {
    const start = Math.floor(t.clock.now() / 1000) + 60;
    const task = await call('POST', 'setting/cron', {
      name: '每4小时开空调',
      device_group_id: ids.site,
      action_id: ids.acOn,
      repeat: 'hours4',
      start,
    });
    expect(task.next_run).toBe(start);
    await t.clock.advance(59_000);
    expect((await call('GET', `setting/cron/log?task_id=${task.id}`)).total).toBe(0);
    await t.clock.advance(2_000);
    await t.sitewatch.settled();
    const log = await call('GET', `setting/cron/log?task_id=${task.id}`);
    expect(log.total).toBe(1);
    expect(log.data[0]).toMatchObject({ ok: true, task_name: '每4小时开空调' });
    expect(await acRegister()).toBe(1);
    const after = (await call('GET', 'setting/cron')).data.find((x: { id: number }) => x.id === task.id);
    expect(after.next_run).toBe(start + 4 * 3600);

    // A second scheduler on the same database (the server after a restart) finds the run claimed.
    const ran: number[] = [];
    const kernel = {
      db: t.database.db,
      bus: t.sitewatch.bus,
      clock: t.clock.now,
      timers: t.clock.timers,
      log: t.app.log,
      config: {} as Kernel['config'],
    } as Kernel;
    const restarted = createTaskScheduler({
      kernel,
      runner: {
        run: async (req) => {
          ran.push(req.trigger_id);
          return null;
        },
      } as Parameters<typeof createTaskScheduler>[0]['runner'],
    });
    await restarted.start();
    expect(ran).toEqual([]);
    restarted.stop();
    // A cron expression: every minute.
    const cron = await call('PUT', `setting/cron/${task.id}`, {
      name: '每分钟',
      device_group_id: ids.site,
      action_id: ids.acOff,
      repeat: 'cron',
      cron: '* * * * *',
    });
    expect(cron.next_run! % 60).toBe(0);
    await t.clock.advance(61_000);
    await t.sitewatch.settled();
    expect((await call('GET', `setting/cron/log?task_id=${task.id}`)).total).toBe(2);
    expect(await acRegister()).toBe(0);
    await call('DELETE', `setting/cron/${task.id}`);
  }, 30_000);
};

describeEachDatabase('automation', (dialect) => {
  const r = useRig(dialect);
  refusals(r);
  linkageRule(r);
  itemActions(r);
  manualRuns(r);
  timedTasks(r);
});
