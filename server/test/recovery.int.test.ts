import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { beforeAll, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { recoveryFileName } from '../src/modules/recovery/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, encryptFor, postLogin, publicKeyOf } from './helpers/login.ts';

const MIN = 60_000;
const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };

describeEachDatabase('administrator recovery', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-recovery-'));
  const t = useManualTestApp(dialect, { dataDir, globalConfigDefaults: noCaptcha }, Date.UTC(2026, 10, 28, 8, 0, 0));
  const file = path.join(dataDir, recoveryFileName);
  let key = '';
  // Each test from an address of its own: the routes allow 10 calls a minute per address.
  let address = 10;
  let from = '';

  const call = async (method: 'POST' | 'PUT', url: string, payload: object, lang = 'zh_cn') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { 'accept-language': lang },
      remoteAddress: from,
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const rootLogin = (code: string, lang?: string) => call('POST', 'pub/login/root_login', { code }, lang);
  const reset = (reset_token: string, password: string) =>
    call('PUT', 'user/rest_password', { reset_token, new_password: encryptFor(key, password) });
  const admin = () =>
    t.database.db.kysely
      .selectFrom('users')
      .select(['password_hash', 'locked_at', 'enable', 'must_change_password'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
  const issue = () => t.sitewatch.services.recovery.issueCode();
  const logRows = () =>
    t.database.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'result', 'detail', 'ip'])
      .where('module', '=', 'recovery')
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
  });
  beforeAll(() => {
    // A locked, disabled administrator: the case the recovery is for.
    return t.database.db.kysely
      .updateTable('users')
      .set({ locked_at: 1, lock_reason: 'manual', enable: 0 })
      .where('id', '=', 1)
      .execute();
  });
  const nextAddress = () => {
    address += 1;
    from = `192.0.2.${address}`;
  };

  it('refuses when no code was made on the box', async () => {
    nextAddress();
    const res = await rootLogin('ABCD-EFGH-JKMN');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      '没有有效的恢复码（已使用、已作废或未生成），请在服务器上运行 npm run recovery-code 生成！',
    );
    expect((await rootLogin('')).body.message).toContain('请输入恢复码！');
  });

  it('keeps only a salted hash of the code, owner-only', async () => {
    const { code } = await issue();
    const stored = readFileSync(file, 'utf8');
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(code.replace(/-/g, ''));
    expect(JSON.parse(stored)).toMatchObject({ failures: 0, hash: expect.stringMatching(/^[a-f0-9]{64}$/) });
  });

  it('takes the right code once: a wrong one is refused, the code used twice is refused', async () => {
    nextAddress();
    const { code } = await issue();
    const before = await admin();
    const wrong = await rootLogin('ZZZZ-ZZZZ-ZZZZ');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('恢复码不正确！');
    expect(JSON.parse(readFileSync(file, 'utf8')).failures).toBe(1);
    // Dashes and case do not matter.
    const right = await rootLogin(code.toLowerCase().replace(/-/g, ''));
    expect(right.status).toBe(200);
    expect(right.body.message).toBe('恢复码正确，请为管理员设置新密码');
    expect(right.body.data).toMatchObject({ user_name: 'admin', expires_in: 600 });
    expect(existsSync(file)).toBe(false);
    const again = await rootLogin(code);
    expect(again.status).toBe(400);
    expect(again.body.message).toContain('没有有效的恢复码');
    // The code alone changed nothing of the account.
    expect(await admin()).toEqual(before);

    // A password the rules refuse keeps the ticket; a good one resets, unlocks and enables.
    const ticket = right.body.data.reset_token as string;
    const weak = await reset(ticket, '123');
    expect(weak.status).toBe(400);
    expect(await admin()).toEqual(before);
    const bad = await reset('not-a-ticket', 'Recovered-Admin-93x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('重置凭证无效或已过期，请重新输入恢复码！');
    const done = await reset(ticket, 'Recovered-Admin-93x');
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('管理员密码已重置，请使用新密码登录！');
    expect(await admin()).toMatchObject({ locked_at: null, enable: 1, must_change_password: 0 });
    expect((await reset(ticket, 'Recovered-Admin-94x')).status).toBe(400);
    const login = await postLogin(t.app, 'admin', 'Recovered-Admin-93x', {}, {});
    expect(login.json().data?.access_token, login.body).toBeTruthy();
  });

  it('refuses an expired code and an expired ticket', async () => {
    nextAddress();
    const first = await issue();
    await t.clock.advance(16 * MIN);
    const expired = await rootLogin(first.code);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('恢复码已过期，请在服务器上重新生成！');
    expect(existsSync(file)).toBe(false);

    const second = await issue();
    const ticket = (await rootLogin(second.code)).body.data.reset_token as string;
    await t.clock.advance(11 * MIN);
    const before = await admin();
    const late = await reset(ticket, 'Recovered-Admin-95x');
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('重置凭证无效或已过期，请重新输入恢复码！');
    expect(await admin()).toEqual(before);
  });

  it('destroys the code after 5 wrong tries, and limits calls per address', async () => {
    nextAddress();
    const { code } = await issue();
    for (let n = 1; n <= 4; n++) expect((await rootLogin(`WRONG-${n}`)).body.message).toBe('恢复码不正确！');
    const fifth = await rootLogin('WRONG-5', 'en_us');
    expect(fifth.body.message).toBe(
      'Too many wrong tries: the recovery code was destroyed, please make a new one on the server!',
    );
    expect(existsSync(file)).toBe(false);
    expect((await rootLogin(code)).body.message).toContain('没有有效的恢复码');
    // Six calls from this address so far: the eleventh within the minute is turned away.
    for (let n = 7; n <= 10; n++) expect((await rootLogin(code)).status).toBe(400);
    expect((await rootLogin(code)).status).toBe(429);
  });

  it('writes every try to the operation log, right or wrong, with the address', async () => {
    const rows = await logRows();
    const seen = rows.map((r) => `${r.action} ${r.result} ${JSON.parse(r.detail || '{}').code ?? ''}`);
    for (const entry of [
      'login 0 recoveryCodeNone',
      'login 0 recoveryCodeWrong',
      'login 1 recoveryCodeAccepted',
      'login 0 recoveryCodeExpired',
      'login 0 recoveryTooMany',
      'change_password 0 recoveryTicketInvalid',
      'change_password 1 passwordReset',
    ])
      expect(seen).toContain(entry);
    expect(rows.every((r) => r.ip.startsWith('192.0.2.'))).toBe(true);
  });
});
