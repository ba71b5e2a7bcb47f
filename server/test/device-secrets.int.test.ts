import { randomBytes } from 'node:crypto';
import { deviceSecretFields } from '@sitewatch/contract/monitoring';
import { expect, it } from 'vitest';
import { loadDevices } from '../src/collector/devices.ts';
import { encryptStoredSecrets } from '../src/secrets/at-rest.ts';
import { createSecretBox, mapJsonFields } from '../src/secrets/index.ts';
import { operations } from './fuzz/harness.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * Issue 11, finding 7: device secrets (MQTT password, SNMPv3 auth and priv keys) were answered in
 * clear by `GET setting/devices`. Now no read answers them, only whether one is set, and a write
 * that leaves one empty keeps the stored one. Issue 28, finding 6: the SNMP v1/v2c community too.
 */
describeEachDatabase('device secrets are answered as set / not set', (dialect) => {
  const box = createSecretBox(randomBytes(32));
  const t = useTestApp(dialect, { secrets: box });
  const k = () => t.database.db.kysely;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, text: res.body };
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await call(method, url, payload);
    expect(res.status, `${method} ${url} ${res.text}`).toBe(200);
    return JSON.parse(res.text).data;
  };
  const secret = { mqtt: 'Mqtt-Secret-4711', auth: 'Auth-Key-8812', priv: 'Priv-Key-9923', community: 'Comm-5531' };
  const at = { site: 0, mqtt: 0, snmp: 0, v2c: 0 };
  const mqttDevice = (options: object) => ({
    name: 'MQTT-1',
    device_group_id: at.site,
    driver: 'mqtt',
    code: 'temp_hum',
    ip: '127.0.0.1',
    port: 1,
    enable: false,
    options: { mqtt_username: 'sensor', ...options },
  });
  const snmpDevice = (options: object) => ({
    name: 'SNMP-1',
    device_group_id: at.site,
    driver: 'snmp',
    code: 'temp_hum',
    ip: '127.0.0.1',
    port: 1,
    protocol_version: 'v3',
    enable: false,
    options: { v3_user: 'monitor', ...options },
  });
  const v2cDevice = (options: object) => ({
    name: 'SNMP-v2c',
    device_group_id: at.site,
    driver: 'snmp',
    code: 'ups',
    ip: '127.0.0.1',
    port: 161,
    protocol_version: 'v2c',
    enable: false,
    options,
  });
  const stored = async (id: number) => {
    const row = await k().selectFrom('devices').select('options').where('id', '=', id).executeTakeFirstOrThrow();
    // Stored encrypted (secrets test); read back in clear with the app's key.
    for (const v of Object.values(secret)) expect(row.options).not.toContain(v);
    return JSON.parse(mapJsonFields(row.options, deviceSecretFields, box.decrypt)) as Record<string, unknown>;
  };

  it('creates devices with an MQTT password and SNMPv3 keys; the answer says only that they are set', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    at.site = (await ok('POST', 'setting/device_groups', { name: 'Room', weight: 1, has_device: true })).id;
    const m = await ok('POST', 'setting/devices', mqttDevice({ mqtt_password: secret.mqtt }));
    const s = await ok('POST', 'setting/devices', snmpDevice({ v3_auth_key: secret.auth, v3_priv_key: secret.priv }));
    const c = await ok('POST', 'setting/devices', v2cDevice({ community: secret.community }));
    at.mqtt = m.id;
    at.snmp = s.id;
    at.v2c = c.id;
    expect(m.options).toMatchObject({ mqtt_password: '', mqtt_password_set: true, v3_auth_key_set: false });
    expect(s.options).toMatchObject({ v3_auth_key: '', v3_priv_key: '', v3_auth_key_set: true, v3_priv_key_set: true });
    expect(c.options).toMatchObject({ community: '', community_set: true, mqtt_password_set: false });
    expect((await ok('GET', `setting/devices/${at.v2c}`)).options).toMatchObject({
      community: '',
      community_set: true,
    });
    await ok('POST', `setting/devices/${at.mqtt}/copy`, { count: 1 });
  });

  it('a new SNMP device without a community gets public, kept like any secret', async () => {
    const d = await ok('POST', 'setting/devices', { ...v2cDevice({}), name: 'SNMP-default' });
    expect(d.options).toMatchObject({ community: '', community_set: true });
    expect(await stored(d.id)).toMatchObject({ community: 'public' });
  });

  it('no GET route of the monitoring, device view, reports and dashboard areas answers a secret', async () => {
    const gets = operations.filter(
      (o) => o.method === 'GET' && ['monitoring', 'device-view', 'reports', 'dashboard'].includes(o.tag),
    );
    expect(gets.length).toBeGreaterThan(20);
    const query: Record<string, string> = {
      device_group_id: String(at.site),
      device_id: String(at.mqtt),
      item_ids: '1',
      t1: '0',
      t2: String(Math.floor(Date.now() / 1000)),
    };
    let answered = 0;
    for (const op of gets) {
      const params = (
        (op.op as { parameters?: Array<{ name: string; in: string; required?: boolean }> }).parameters ?? []
      )
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => `${p.name}=${query[p.name] ?? '1'}`);
      for (const id of [at.mqtt, at.snmp, at.v2c]) {
        const url = op.path.replace(/\{[^}]+\}/g, String(id)) + (params.length ? `?${params.join('&')}` : '');
        const res = await call('GET', url.replace('device_id=' + at.mqtt, `device_id=${id}`));
        if (res.status === 200) answered++;
        for (const v of Object.values(secret)) expect(res.text, `${op.path} answers a secret`).not.toContain(v);
      }
    }
    expect(answered).toBeGreaterThan(gets.length);
    // The device list and the device itself answered, so the scan saw the devices.
    const list = await ok('GET', `setting/devices?device_group_id=${at.site}`);
    expect(list.total).toBe(5);
    expect(list.data.find((d: { name: string }) => d.name === 'MQTT-1-1').options.mqtt_password_set).toBe(true);
  });

  it('an update without the secrets keeps them, one with a new secret replaces it', async () => {
    const m = await ok('PUT', `setting/devices/${at.mqtt}`, mqttDevice({ mqtt_password: '' }));
    expect(m.options.mqtt_password_set).toBe(true);
    await ok('PUT', `setting/devices/${at.snmp}`, snmpDevice({}));
    expect(await stored(at.mqtt)).toMatchObject({ mqtt_password: secret.mqtt });
    expect(await stored(at.snmp)).toMatchObject({ v3_auth_key: secret.auth, v3_priv_key: secret.priv });
    await ok('PUT', `setting/devices/${at.mqtt}`, mqttDevice({ mqtt_password: 'New-Mqtt-1' }));
    await ok('PUT', `setting/devices/${at.snmp}`, snmpDevice({ v3_priv_key: 'New-Priv-2' }));
    expect(await stored(at.mqtt)).toMatchObject({ mqtt_password: 'New-Mqtt-1' });
    expect(await stored(at.snmp)).toMatchObject({ v3_auth_key: secret.auth, v3_priv_key: 'New-Priv-2' });
    // The copy kept the source's secret on the server.
    const copy = await k().selectFrom('devices').select('id').where('name', '=', 'MQTT-1-1').executeTakeFirstOrThrow();
    expect(await stored(copy.id)).toMatchObject({ mqtt_password: secret.mqtt });
    // The community, as the device form sends it when left blank: kept; a new one replaces it.
    await ok('PUT', `setting/devices/${at.v2c}`, v2cDevice({ community: '' }));
    expect(await stored(at.v2c)).toMatchObject({ community: secret.community });
    await ok('PUT', `setting/devices/${at.v2c}`, v2cDevice({ community: 'Comm-6642' }));
    expect(await stored(at.v2c)).toMatchObject({ community: 'Comm-6642' });
  });

  it('a community stored in clear (before this) is encrypted by the start-up pass; the collector reads it in clear', async () => {
    // As an older version stored it (enabled, so that the collector loads it).
    const clear = JSON.stringify({ community: 'Comm-7753', timeout_ms: 2000 });
    await k().updateTable('devices').set({ options: clear, enable: 1 }).where('id', '=', at.v2c).execute();
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(1);
    const row = await k().selectFrom('devices').select('options').where('id', '=', at.v2c).executeTakeFirstOrThrow();
    expect(row.options).not.toContain('Comm-7753');
    expect(JSON.parse(row.options).community).toMatch(/^enc:v1:/);
    // Idempotent: nothing left in clear.
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(0);
    const [device] = await loadDevices(t.database.db, at.v2c, box);
    expect(device?.options.community).toBe('Comm-7753');
    expect((await ok('GET', `setting/devices/${at.v2c}`)).options).toMatchObject({
      community: '',
      community_set: true,
    });
  });
});
