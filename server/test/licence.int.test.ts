import { beforeAll, describe, expect, it } from 'vitest';
import { makeVendorKeys } from '../src/modules/licence/code.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { itemBody } from './helpers/estate-rows.ts';
import { testLicenceCode, testLicenceKeys } from './helpers/licence-keys.ts';

const DAY = 86_400_000;
/** The version the server package states: CHANGELOG.md's newest entry names it. */
const res0Version = (await import('../package.json', { with: { type: 'json' } })).default.version;
const start = Date.UTC(2026, 0, 5, 1, 0, 0);

describeEachDatabase('licence', (dialect) => {
  const t = useManualTestApp(dialect, { licence: { publicKey: testLicenceKeys.publicKey, trialDays: 30 } }, start);
  let sn = '';
  let site = 0;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'zh_cn') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token', 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const licence = async () => (await call('GET', 'pub/license')).body.data;
  const activate = (code: string, lang?: string) => call('POST', 'pub/license', { code }, lang);
  const device = (name: string, code = 'temp_hum') =>
    call('POST', 'setting/devices', { name, device_group_id: site, driver: 'simulator', code });
  const counts = async () => {
    const k = t.database.db.kysely;
    const n = async (table: 'devices' | 'items') =>
      Number(
        (
          await k
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { devices: await n('devices'), items: await n('items') };
  };

  beforeAll(async () => {
    sn = (await licence()).sn;
    site = (await call('POST', 'setting/device_groups', { name: 'Licence room', weight: 1 })).body.data.id;
  });

  it('makes a serial number at first start and runs a trial of 30 days from it', async () => {
    const info = await licence();
    expect(info.sn).toMatch(/^SW(-[A-Z2-9]{4}){4}$/);
    expect(info).toMatchObject({
      status: 'trial',
      trial_days: 30,
      remain_days: 30,
      start_time: start / 1000,
      expire_timestamp: start / 1000 + 30 * 86_400,
      device_quantity: 0,
      blocks_configuration: false,
    });
  });

  it('does not give back trial days when the clock is moved back', async () => {
    // The wall clock moves (as a change of the system time would; no timer needs to run).
    t.clock.jump(start + 10 * DAY);
    expect((await licence()).remain_days).toBe(20);
    t.clock.jump(start - 100 * DAY);
    const back = await licence();
    expect(back.remain_days).toBe(20);
    expect(back.status).toBe('trial');
    t.clock.jump(start + 10 * DAY);
  });

  it('refuses a code for another serial, a tampered code, an expired one and one of another key', async () => {
    const other = await activate(testLicenceCode('SW-AAAA-BBBB-CCCC-DDDD'));
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(`该激活码不属于本机（本机序列号：${sn}）！`);

    const good = testLicenceCode(sn, { devices: 3 });
    const [prefix, payload, signature] = good.split('.');
    const json = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${prefix}.${Buffer.from(JSON.stringify({ ...json, devices: 3000 })).toString('base64url')}.${signature}`;
    expect((await activate(tampered)).body.message).toBe('激活码校验失败：不是供应商签发的激活码，或已被修改！');

    const stranger = testLicenceCode(sn, {}, makeVendorKeys().privateKey);
    const refused = await activate(stranger, 'en_us');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'The activation code failed verification: it was not issued by the vendor, or it was altered!',
    );

    const expired = await activate(testLicenceCode(sn, { expires: Math.floor(start / 1000) + 5 * 86_400 }));
    expect(expired.body.message).toBe('该激活码已过期，请联系供应商重新获取！');

    expect((await activate('not a code')).body.message).toBe('激活码格式不正确，请检查是否完整复制！');
    expect((await activate('  ')).body.message).toContain('请输入产品激活码！');
    expect((await licence()).status).toBe('trial');
  });

  it('activates with a code signed by the vendor and enforces its quotas, changing nothing when refused', async () => {
    const until = Math.floor(start / 1000) + 400 * 86_400;
    const before = await counts();
    const code = testLicenceCode(sn, {
      edition: 'enterprise',
      expires: until,
      devices: before.devices + 3,
      items: before.items + 1,
      categories: { temp_hum: 2 },
    });
    const res = await activate(code);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('激活成功！');
    expect(res.body.data).toMatchObject({
      status: 'activated',
      edition: 'enterprise',
      expire_timestamp: until,
      device_quantity: before.devices + 3,
      item_quantity: before.items + 1,
      category_limit: { temp_hum: 2 },
    });

    // Two temperature and humidity devices are allowed; the third is refused by its category.
    expect((await device('TH-1')).status).toBe(200);
    const th2 = await device('TH-2');
    expect(th2.status).toBe(200);
    const third = await device('TH-3');
    expect(third.status).toBe(409);
    expect(third.body.message).toBe('温湿度设备数量已达到授权上限（2台），不能再添加！');
    // A copy of one counts as well.
    expect((await call('POST', `setting/devices/${th2.body.data.id}/copy`, { count: 1 })).status).toBe(409);
    const cats = (await call('GET', 'pub/categorys_license')).body.data.data;
    expect(cats.find((c: { code: string }) => c.code === 'temp_hum')).toMatchObject({ limit: 2, count: 2 });

    // One more device of another category fits the total; the next passes it.
    expect((await device('UPS-1', 'ups')).status).toBe(200);
    const atLimit = await counts();
    const over = await device('UPS-2', 'ups');
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(`设备数量已达到授权上限（${before.devices + 3}台），不能再添加！`);
    // Copying two at once would pass it too.
    expect((await call('POST', `setting/devices/${th2.body.data.id}/copy`, { count: 2 }, 'en_us')).body.message).toBe(
      `The licensed number of devices (${before.devices + 3}) is reached; no more can be added!`,
    );
    expect(await counts()).toEqual(atLimit);

    // Items: one fits, the second is refused.
    expect((await call('POST', 'setting/items', itemBody(th2.body.data.id, 'T1'))).status).toBe(200);
    const item = await call('POST', 'setting/items', itemBody(th2.body.data.id, 'T2'));
    expect(item.status).toBe(409);
    expect(item.body.message).toBe(`监控项数量已达到授权上限（${before.items + 1}个），不能再添加！`);
    expect((await counts()).items).toBe(atLimit.items + 1);

    const info = await licence();
    expect(info).toMatchObject({ devices: atLimit.devices, items: atLimit.items + 1 });
  });

  it('an expired licence keeps alarms going but refuses configuration changes', async () => {
    t.clock.jump(start + 410 * DAY);
    const info = await licence();
    expect(info).toMatchObject({ status: 'expired', blocks_configuration: true });
    const refused = await call('POST', 'setting/device_groups', { name: 'After expiry', weight: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('授权已过期，不能修改配置，请先激活！');
    // Reads go on; activating again lifts it.
    expect((await call('GET', 'setting/devices')).status).toBe(200);
    expect((await activate(testLicenceCode(sn))).status).toBe(200);
    expect((await call('POST', 'setting/device_groups', { name: 'After renewal', weight: 1 })).status).toBe(200);
  });

  describe('software version', () => {
    it('names the version, the build, the components and the licence', async () => {
      const res = await call('GET', 'setting/software_version');
      expect(res.status).toBe(200);
      expect(res.body.data.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(res.body.data.components.map((c: { name: string }) => c.name)).toContain('Node.js');
      expect(res.body.data.licence.sn).toBe(sn);
    });

    it('carries the changelog of the build, newest version first', async () => {
      const { changelog } = (await call('GET', 'setting/software_version')).body.data;
      expect(changelog[0].version).toBe(res0Version);
      expect(changelog[0].changes.length).toBeGreaterThan(0);
      expect(changelog[0].changes.join(' ')).toContain('recovery');
    });
  });
});
