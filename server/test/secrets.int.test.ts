import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultLdapConfig } from '@sitewatch/contract/ldap';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDevices } from '../src/collector/collector.ts';
import { openDb } from '../src/db/kysely.ts';
import { encryptStoredSecrets } from '../src/secrets/at-rest.ts';
import { createSecretBox, loadOrCreateSecretBox } from '../src/secrets/index.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';
import { type HttpPeer, type SmtpPeer, startHttpPeer, startSmtpPeer } from './helpers/notify-peers.ts';
import { type Slapd, startSlapd } from './helpers/slapd.ts';

// Issue 11, finding 7: the data dir and the SQLite files were world-readable (0644).
describe('data dir and database file modes', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sitewatch-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('a new data dir is 0700 and the db, -wal and -shm files 0600', async () => {
    const dataDir = path.join(root, 'new');
    const db = openDb({ dataDir });
    await sql`create table t (x integer)`.execute(db.kysely);
    await sql`insert into t values (1)`.execute(db.kysely);
    expect(mode(dataDir)).toBe(0o700);
    for (const f of ['sitewatch.db', 'sitewatch.db-wal', 'sitewatch.db-shm'])
      expect(mode(path.join(dataDir, f)), f).toBe(0o600);
    await db.close();
  });

  it('an existing open dir and database are tightened at the next start', async () => {
    const dataDir = path.join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    const first = openDb({ dataDir });
    await sql`create table t (x integer)`.execute(first.kysely);
    await first.close();
    const { chmodSync } = await import('node:fs');
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'sitewatch.db'), 0o644);
    const again = openDb({ dataDir });
    await sql`select 1`.execute(again.kysely);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'sitewatch.db'))).toBe(0o600);
    await again.close();
  });
});

// Issue 11, finding 7: secrets were stored in clear. Now AES-256-GCM with a key file in the data dir.
describe('the secret key', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sitewatch-key-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is made 0600 at first use, read back at the next start, and refuses a value changed on disk', () => {
    const first = loadOrCreateSecretBox(root);
    const file = path.join(root, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).length).toBe(32);
    const stored = first.encrypt('Bind-Pass-1');
    expect(stored.startsWith('enc:v1:')).toBe(true);
    expect(stored).not.toContain('Bind-Pass-1');
    expect(first.encrypt(stored)).toBe(stored);
    expect(first.encrypt('')).toBe('');
    expect(loadOrCreateSecretBox(root).decrypt(stored)).toBe('Bind-Pass-1');
    // Plaintext from before passes through; another key or a changed byte gives nothing.
    expect(first.decrypt('old-plain')).toBe('old-plain');
    expect(createSecretBox(Buffer.alloc(32, 7)).decrypt(stored)).toBe('');
    const raw = Buffer.from(stored.slice(7), 'base64');
    raw.writeUInt8((raw.at(-1) ?? 0) ^ 1, raw.length - 1);
    expect(first.decrypt(`enc:v1:${raw.toString('base64')}`)).toBe('');
  });
});

describeEachDatabase('device secrets are encrypted at rest', (dialect) => {
  const keyDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-key-'));
  afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
  const box = loadOrCreateSecretBox(keyDir);
  const t = useTestApp(dialect, { secrets: box });
  const k = () => t.database.db.kysely;
  const secret = { mqtt: 'Mqtt-Rest-5150', auth: 'Auth-Rest-6160', priv: 'Priv-Rest-7170', old: 'Old-Plain-8180' };
  const ok = async (url: string, payload: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const ids = { mqtt: 0, snmp: 0, old: 0 };

  it('stores device secrets encrypted; the collector loads them in clear', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    const site = (await ok('setting/device_groups', { name: 'Room', weight: 1 })).id;
    const base = { device_group_id: site, code: 'temp_hum', ip: '127.0.0.1', port: 1 };
    ids.mqtt = (
      await ok('setting/devices', { ...base, name: 'M1', driver: 'mqtt', options: { mqtt_password: secret.mqtt } })
    ).id;
    ids.snmp = (
      await ok('setting/devices', {
        ...base,
        name: 'S1',
        driver: 'snmp',
        protocol_version: 'v3',
        options: { v3_user: 'u', v3_auth_key: secret.auth, v3_priv_key: secret.priv },
      })
    ).id;
    // A row from before encryption: plaintext, encrypted by the start-up pass.
    const mqttRow = await k().selectFrom('devices').selectAll().where('id', '=', ids.mqtt).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = mqttRow;
    ids.old = Number(
      (
        await k()
          .insertInto('devices')
          .values({ ...copy, name: 'old', options: JSON.stringify({ mqtt_password: secret.old }) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(1);
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(0);

    const rows = await k().selectFrom('devices').select('options').execute();
    for (const r of rows) for (const v of Object.values(secret)) expect(r.options).not.toContain(v);
    const loaded = new Map((await loadDevices(t.database.db, undefined, box)).map((d) => [d.id, d.options]));
    expect(loaded.get(ids.mqtt)?.mqtt_password).toBe(secret.mqtt);
    expect(loaded.get(ids.snmp)).toMatchObject({ v3_auth_key: secret.auth, v3_priv_key: secret.priv });
    expect(loaded.get(ids.old)?.mqtt_password).toBe(secret.old);
  });

  it.runIf(dialect === 'sqlite')('the SQLite files hold none of the secrets', async () => {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(k());
    const list = await sql<{ file: string }>`PRAGMA database_list`.execute(k());
    const file = list.rows[0]?.file ?? '';
    expect(existsSync(file)).toBe(true);
    for (const f of [file, `${file}-wal`].filter(existsSync)) {
      const bytes = readFileSync(f);
      for (const v of Object.values(secret)) expect(bytes.includes(Buffer.from(v)), `${f} holds ${v}`).toBe(false);
    }
  });
});

describeEachDatabase('mail, LDAP and channel secrets are encrypted at rest and still work', (dialect) => {
  const keyDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-key-'));
  const box = loadOrCreateSecretBox(keyDir);
  const t = useTestApp(dialect, { secrets: box });
  const k = () => t.database.db.kysely;
  const hookSecret = 'Hook-Secret-2626';
  const mailPass = 'Mail-Pass-3737';
  let http: HttpPeer;
  let smtp: SmtpPeer;
  let slapd: Slapd;
  beforeAll(async () => {
    http = await startHttpPeer(hookSecret, 'unused-key');
    smtp = await startSmtpPeer('alarm@example.com', mailPass);
    slapd = await startSlapd({ users: [{ uid: 'alice', password: 'Alice-Dir-1', cn: 'Alice' }] });
  });
  afterAll(async () => {
    await http?.close();
    await smtp?.close();
    await slapd?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json(), text: res.body };
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await call(method, url, payload);
    expect(res.status, `${method} ${url} ${res.text}`).toBe(200);
    expect(res.body.code, res.text).toBe(0);
    return res.body.data;
  };

  it('stores them encrypted; the mailer, the LDAP bind and the webhook signature get the clear values', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    await ok('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow: ['127.0.0.0/8', '::1'], deny: [] } });
    await ok('PUT', 'setting/email_service', {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      user: 'alarm@example.com',
      password: mailPass,
      from: 'alarm@example.com',
      enable: true,
    });
    const { bind_password: _b, ...ldapDefaults } = defaultLdapConfig;
    await ok('PUT', 'setting/ldap', {
      ...ldapDefaults,
      enabled: true,
      url: slapd.url,
      bind_dn: slapd.rootDn,
      bind_password: slapd.rootPassword,
      base_dn: slapd.suffix,
      timeout_seconds: 3,
    });
    const hook = await ok('POST', 'setting/alarm_push', {
      name: 'hook',
      kind: 'webhook',
      config: { url: `${http.url}/webhook`, secret: hookSecret, retries: 0, timeout_ms: 1000 },
    });

    const rows = [
      ...(await k().selectFrom('alarm_settings').select('v').execute()).map((r) => r.v),
      ...(await k().selectFrom('global_config').select('v').execute()).map((r) => r.v),
      ...(await k().selectFrom('notify_channels').select('config').execute()).map((r) => r.config),
    ].join('\n');
    for (const v of [mailPass, slapd.rootPassword, hookSecret]) expect(rows).not.toContain(v);
    expect(rows.match(/enc:v1:/g)?.length).toBe(3);

    // Each secret is used from the encrypted row: the peers accept only the right one.
    await ok('POST', `setting/alarm_push/${hook.id}/test`);
    expect(http.accepted.filter((r) => r.path === '/webhook')).toHaveLength(1);
    expect(http.refused).toHaveLength(0);
    const users = await ok('GET', 'setting/ldap/remote_users?page=1&limit=10');
    expect(users.data.map((u: { user_name: string }) => u.user_name)).toEqual(['alice']);
    const mail = await call('POST', 'setting/email_service', { to: 'duty@example.com' });
    expect(mail.status, mail.text).toBe(200);
    expect(smtp.messages.length).toBeGreaterThan(0);
  });

  it.runIf(dialect === 'sqlite')('the SQLite files hold none of them', async () => {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(k());
    const list = await sql<{ file: string }>`PRAGMA database_list`.execute(k());
    const file = list.rows[0]?.file ?? '';
    for (const f of [file, `${file}-wal`].filter(existsSync)) {
      const bytes = readFileSync(f);
      for (const v of [mailPass, slapd.rootPassword, hookSecret])
        expect(bytes.includes(Buffer.from(v)), `${f} holds ${v}`).toBe(false);
    }
  });

  it('plaintext rows from before are encrypted at the next start, once', async () => {
    await k()
      .updateTable('notify_channels')
      .set({ config: JSON.stringify({ url: `${http.url}/webhook`, secret: hookSecret }) })
      .execute();
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(1);
    expect(await encryptStoredSecrets(t.database.db, box, t.sitewatch.areas)).toBe(0);
    const [row] = await k().selectFrom('notify_channels').select('config').execute();
    expect(row?.config).not.toContain(hookSecret);
  });
});
