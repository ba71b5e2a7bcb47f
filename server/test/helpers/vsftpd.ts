import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface Vsftpd {
  port: number;
  /** The folder anonymous users write into (`/backups` on the server). */
  uploads: string;
  /** The server's certificate (PEM), when started with TLS. */
  certificate?: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/**
 * A self-signed RSA certificate for `localhost` (and 127.0.0.1 only when asked), made by openssl
 * for the run: the FTPS server's. RSA because vsftpd 3.0.3 sets up no curve for an EC key.
 */
export const makeFtpsCertificate = (dir: string, names: string[] = ['DNS:localhost']) => {
  const cert = path.join(dir, 'ftps-cert.pem');
  const key = path.join(dir, 'ftps-key.pem');
  // biome-ignore format: flag and value in pairs
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '3650', '-subj', '/CN=localhost',
    '-addext', `subjectAltName=${names.join(',')}`, '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' });
  return { cert, key };
};

/**
 * Debian's vsftpd on a free loopback port, with an anonymous user that may write into `/backups`
 * (the test's FTP server; the product talks to it as to any). Started as root, as vsftpd wants.
 * With `tls`, FTPS (explicit, AUTH TLS) is required of every sign-in and transfer, with a
 * certificate made here; its PEM is answered as `certificate`.
 */
export const startVsftpd = async (options: { tls?: boolean } = {}): Promise<Vsftpd> => {
  if (userInfo().uid !== 0) throw new Error('vsftpd needs root to start');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-vsftpd-'));
  const root = path.join(dir, 'root');
  const uploads = path.join(root, 'backups');
  mkdirSync(uploads, { recursive: true });
  chmodSync(dir, 0o755);
  chmodSync(root, 0o555);
  const ftpUid = Number(execFileSync('id', ['-u', 'ftp']).toString().trim());
  chownSync(uploads, ftpUid, 0);
  chmodSync(uploads, 0o755);
  mkdirSync('/var/run/vsftpd/empty', { recursive: true });
  const port = await freePort();
  const pasv = await freePort();
  const conf = path.join(dir, 'vsftpd.conf');
  const pair = options.tls ? makeFtpsCertificate(dir) : null;
  const tlsLines = pair
    ? [
        'ssl_enable=YES',
        'allow_anon_ssl=YES',
        'force_anon_logins_ssl=YES',
        'force_anon_data_ssl=YES',
        'ssl_tlsv1=YES',
        'ssl_sslv2=NO',
        'ssl_sslv3=NO',
        'ssl_ciphers=HIGH',
        `rsa_cert_file=${pair.cert}`,
        `rsa_private_key_file=${pair.key}`,
      ]
    : [];
  writeFileSync(
    conf,
    [
      'listen=YES',
      'listen_ipv6=NO',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=YES',
      'local_enable=NO',
      'write_enable=YES',
      'anon_upload_enable=YES',
      'anon_mkdir_write_enable=YES',
      'anon_other_write_enable=YES',
      `anon_root=${root}`,
      'no_anon_password=YES',
      'anon_umask=022',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${pasv}`,
      `pasv_max_port=${pasv}`,
      'seccomp_sandbox=NO',
      'isolate=NO',
      'isolate_network=NO',
      'secure_chroot_dir=/var/run/vsftpd/empty',
      'xferlog_enable=NO',
      `vsftpd_log_file=${path.join(dir, 'vsftpd.log')}`,
      ...tlsLines,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/sbin/vsftpd', [conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  // Ready when the port answers.
  for (let i = 0; i < 100; i++) {
    if (exited) throw new Error('vsftpd exited at start');
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    uploads,
    ...(pair ? { certificate: readFileSync(pair.cert, 'utf8') } : {}),
    stop: async () => {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
