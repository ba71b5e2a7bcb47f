import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLogSource, redactLine, redactLog, sm4Encrypt, tailOfFile } from './debug-log.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-debug-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('debug log', () => {
  it('finds the file a process writes its standard output to, and nothing for a pipe', async () => {
    const file = path.join(dir, 'server.log');
    const fd = openSync(file, 'a');
    const child = spawn('sleep', ['5'], { stdio: ['ignore', fd, 'ignore'] });
    closeSync(fd);
    try {
      expect(await findLogSource(child.pid)).toEqual({ kind: 'file', file });
    } finally {
      child.kill('SIGKILL');
    }
    const piped = spawn('sleep', ['5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      expect(await findLogSource(piped.pid, {})).toEqual({ kind: 'none' });
    } finally {
      piped.kill('SIGKILL');
    }
  });

  it('reads the last bytes from a whole line on', async () => {
    const file = path.join(dir, 'tail.log');
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(50)}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const tail = await tailOfFile(file, 1000);
    expect(tail.length).toBeLessThanOrEqual(1000);
    expect(tail.startsWith('line ')).toBe(true);
    expect(tail.trimEnd().endsWith('line 999 ' + 'x'.repeat(50))).toBe(true);
  });

  it('redacts passwords, tokens and keys in JSON and in text lines', () => {
    const json = JSON.stringify({
      level: 30,
      msg: 'login',
      req: { headers: { authorization: 'Bearer abc.def', cookie: 'sid=1' }, url: '/api/v1/x?token=s3cret&page=1' },
      body: { user_name: 'admin', password: 'Hunter2!', verify_password: 'enc', nested: [{ api_key: 'k1' }] },
      settings: { bind_password: 'ldap-pw', sm4: { key: '0123' } },
    });
    const out = redactLine(json);
    for (const secret of ['abc.def', 'sid=1', 's3cret', 'Hunter2!', 'enc"', 'k1', 'ldap-pw', '0123'])
      expect(out, secret).not.toContain(secret);
    expect(JSON.parse(out).body.user_name).toBe('admin');
    expect(JSON.parse(out).req.url).toContain('page=1');
    const text = redactLog(
      [
        '12:00:01 INFO connect postgres://sitewatch:pg-secret@db:5432/sw',
        'token swt_abcdefABCDEF_0123456789 used',
        'password=letmein&user=bob',
        'Authorization: Basic dXNlcjpwYXNz',
        '-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----',
      ].join('\n'),
    );
    for (const secret of ['pg-secret', 'abcdefABCDEF_0123456789', 'letmein', 'dXNlcjpwYXNz', 'MIIEv'])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('user=bob');
  });

  it('SM4-CBC output is what openssl decrypts with the key and the leading IV', () => {
    const key = '0123456789abcdef0123456789abcdef';
    const plain = Buffer.from('a debug log line\n'.repeat(100));
    const sealed = sm4Encrypt(plain, key);
    const file = path.join(dir, 'log.sm4');
    writeFileSync(file, sealed.subarray(16));
    const iv = sealed.subarray(0, 16).toString('hex');
    const clear = execFileSync('openssl', ['enc', '-d', '-sm4-cbc', '-K', key, '-iv', iv, '-in', file]);
    expect(clear.equals(plain)).toBe(true);
  });
});
