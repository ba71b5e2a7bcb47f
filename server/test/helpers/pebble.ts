import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Starts a program and resolves when a line of its output matches `ready` (an event, not a sleep). */
const startUntil = (file: string, args: string[], env: Record<string, string>, ready: RegExp) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${file} exited ${code}: ${seen}`)));
  });

export interface Pebble {
  directoryUrl: string;
  /** Pebble's own HTTPS certificate (made for this run): the product trusts it as the directory's CA. */
  ca: string;
  stop(): void;
}

/**
 * Debian's pebble ACME test server on loopback, with pebble-challtestsrv as its DNS (every name →
 * 127.0.0.1). `httpPort`: where pebble validates HTTP-01 (the product's port); without it every
 * challenge is taken as valid (PEBBLE_VA_ALWAYS_VALID, for callers that do not listen). Pebble
 * rejects `nonceReject` % of nonces on purpose.
 */
export const startPebble = async (options: { httpPort?: number; nonceReject: number }): Promise<Pebble> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-pebble-'));
  // biome-ignore format: openssl's arguments read best in pairs
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '2',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const [api, management, dns, dnsManagement] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const config = path.join(dir, 'pebble.json');
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${api}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: path.join(dir, 'cert.pem'),
        privateKey: path.join(dir, 'key.pem'),
        httpPort: options.httpPort ?? 5002,
        tlsPort: 5001,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // biome-ignore format: flag and value in pairs
    children.push(await startUntil('pebble-challtestsrv', [
      '-dns01', `127.0.0.1:${dns}`, '-http01', '', '-https01', '', '-tlsalpn01', '',
      '-management', `127.0.0.1:${dnsManagement}`, '-defaultIPv4', '127.0.0.1', '-defaultIPv6', '',
    ], {}, /Starting management server/i));
    children.push(
      await startUntil(
        'pebble',
        ['-config', config, '-dnsserver', `127.0.0.1:${dns}`],
        {
          PEBBLE_WFE_NONCEREJECT: String(options.nonceReject),
          PEBBLE_VA_NOSLEEP: '1',
          ...(options.httpPort ? {} : { PEBBLE_VA_ALWAYS_VALID: '1' }),
        },
        /Listening on/,
      ),
    );
  } catch (err) {
    stop();
    throw err;
  }
  return { directoryUrl: `https://127.0.0.1:${api}/dir`, ca: readFileSync(path.join(dir, 'cert.pem'), 'utf8'), stop };
};
