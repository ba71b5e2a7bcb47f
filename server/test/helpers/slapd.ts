import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real OpenLDAP server for tests: Debian's `slapd` on free loopback ports, with its own config
 * (slapd.conf, mdb backend) and data in a temp dir, loaded with `slapadd`. Node built-ins only, so
 * the browser journeys can start one too.
 */

export const slapdBinary = '/usr/sbin/slapd';
export const slapaddBinary = '/usr/sbin/slapadd';

export interface DirectoryUser {
  uid: string;
  password: string;
  cn: string;
  sn?: string;
  mail?: string;
  telephoneNumber?: string;
  /** Organisational unit under the suffix; `people` unless given. */
  ou?: string;
}

export interface Slapd {
  /** ldap://127.0.0.1:port */
  url: string;
  /** ldaps://127.0.0.1:port (a self-signed certificate for 127.0.0.1), when started with `tls`. */
  ldapsUrl: string | null;
  suffix: string;
  rootDn: string;
  rootPassword: string;
  /** DN of a user entry of `users`. */
  dnOf(uid: string, ou?: string): string;
  /** Stops the server (it refuses connections afterwards) and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server but keeps its data, so `start` can bring it back on the same ports. */
  pause(): Promise<void>;
  start(): Promise<void>;
}

export const slapdAvailable = () => existsSync(slapdBinary) && existsSync(slapaddBinary);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `{SSHA}` as slappasswd makes it: SHA-1 of password + salt, then the salt, base64. */
const sshaHash = (password: string) => {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
};

const ldifOf = (suffix: string, users: DirectoryUser[]) => {
  const dc = /^dc=([^,]+)/.exec(suffix)?.[1] ?? 'test';
  const units = [...new Set(['people', ...users.map((u) => u.ou ?? 'people')])];
  const blocks = [
    `dn: ${suffix}\nobjectClass: top\nobjectClass: dcObject\nobjectClass: organization\no: Sitewatch test\ndc: ${dc}`,
    ...units.map((ou) => `dn: ou=${ou},${suffix}\nobjectClass: organizationalUnit\nou: ${ou}`),
    ...users.map((u, i) =>
      [
        `dn: uid=${u.uid},ou=${u.ou ?? 'people'},${suffix}`,
        'objectClass: inetOrgPerson',
        'objectClass: posixAccount',
        `uid: ${u.uid}`,
        `cn: ${u.cn}`,
        `sn: ${u.sn ?? u.cn}`,
        ...(u.mail ? [`mail: ${u.mail}`] : []),
        ...(u.telephoneNumber ? [`telephoneNumber: ${u.telephoneNumber}`] : []),
        `uidNumber: ${10_000 + i}`,
        `gidNumber: 10000`,
        `homeDirectory: /home/${u.uid}`,
        `userPassword: ${sshaHash(u.password)}`,
      ].join('\n'),
    ),
  ];
  return `${blocks.join('\n\n')}\n`;
};

/**
 * Starts slapd with the given users under `ou=people` (or their own `ou`) of `dc=sitewatch,dc=test`.
 * Anonymous clients may bind (authenticate) but read nothing; the root DN reads everything; a user
 * reads their own entry.
 */
export const startSlapd = async (options: { users: DirectoryUser[]; tls?: boolean }): Promise<Slapd> => {
  if (!slapdAvailable()) throw new Error('slapd is not installed (Debian packages slapd and ldap-utils)');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-slapd-'));
  const suffix = 'dc=sitewatch,dc=test';
  const rootDn = `cn=admin,${suffix}`;
  const rootPassword = randomBytes(12).toString('base64url');
  const port = await freePort();
  const tlsPort = options.tls ? await freePort() : null;
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  let tlsLines: string[] = [];
  if (options.tls) {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
    tlsLines = [`TLSCertificateFile ${cert}`, `TLSCertificateKeyFile ${key}`];
  }
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      `argsfile ${path.join(dir, 'slapd.args')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      ...tlsLines,
      'database mdb',
      'maxsize 16777216',
      `suffix "${suffix}"`,
      `rootdn "${rootDn}"`,
      `rootpw ${sshaHash(rootPassword)}`,
      `directory ${dataDir}`,
      'access to attrs=userPassword by self write by anonymous auth by * none',
      'access to * by self read by users read by anonymous auth',
      '',
    ].join('\n'),
  );
  const ldif = path.join(dir, 'data.ldif');
  writeFileSync(ldif, ldifOf(suffix, options.users));
  execFileSync(slapaddBinary, ['-f', conf, '-l', ldif], { stdio: 'pipe' });

  const urls = [`ldap://127.0.0.1:${port}/`, ...(tlsPort ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])];
  let child: ChildProcess | null = null;
  let stderr = '';

  const start = async () => {
    stderr = '';
    // `-d 0` keeps slapd in the foreground, so this process owns it and can end it.
    const proc = spawn(slapdBinary, ['-f', conf, '-h', urls.join(' '), '-d', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child = proc;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`slapd exited with ${proc.exitCode}: ${stderr}`);
      if ((await canConnect(port)) && (tlsPort === null || (await canConnect(tlsPort)))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    proc.kill('SIGKILL');
    throw new Error(`slapd did not listen on ${urls.join(' ')}: ${stderr}`);
  };

  const pause = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    url: `ldap://127.0.0.1:${port}`,
    ldapsUrl: tlsPort ? `ldaps://127.0.0.1:${tlsPort}` : null,
    suffix,
    rootDn,
    rootPassword,
    dnOf: (uid, ou = 'people') => `uid=${uid},ou=${ou},${suffix}`,
    pause,
    start,
    async stop() {
      await pause();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
