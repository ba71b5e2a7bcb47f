import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

/** openssl's date form (YYYYMMDDHHMMSSZ). */
const asn1 = (ms: number) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/**
 * A self-signed certificate and key made by openssl for this run, valid from `from` to `to` (epoch
 * ms; by default from the year 2000, so a test's manual clock of any date finds it valid, for ten
 * years from now). `openssl ca` sets both dates, so an expired one is made as easily.
 */
export const makePair = (cn: string, valid: { from?: number; to?: number } = {}) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-https-'));
  const f = (name: string) => path.join(dir, name);
  try {
    writeFileSync(f('index.txt'), '');
    writeFileSync(f('serial'), `${Date.now().toString(16).padStart(16, '0')}\n`);
    writeFileSync(
      f('ca.cnf'),
      `[ca]\ndefault_ca = d\n[d]\ndatabase = ${f('index.txt')}\nnew_certs_dir = ${dir}\nserial = ${f('serial')}\n` +
        'default_md = sha256\npolicy = p\ncopy_extensions = copy\nunique_subject = no\n[p]\ncommonName = supplied\n',
    );
    // biome-ignore format: flag and value in pairs
    execFileSync('openssl', [
      'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${cn}`,
      '-addext', `subjectAltName=DNS:${cn}`, '-keyout', f('key.pem'), '-out', f('csr.pem'),
    ], { stdio: 'ignore' });
    // biome-ignore format: flag and value in pairs
    execFileSync('openssl', [
      'ca', '-batch', '-config', f('ca.cnf'), '-selfsign', '-keyfile', f('key.pem'), '-in', f('csr.pem'),
      '-out', f('cert.pem'), '-notext',
      '-startdate', asn1(valid.from ?? Date.UTC(2000, 0, 1)), '-enddate', asn1(valid.to ?? Date.now() + 3650 * 86_400_000),
    ], { stdio: 'ignore' });
    return { cert: readFileSync(f('cert.pem'), 'utf8'), key: readFileSync(f('key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The SHA-256 fingerprint of the certificate a TLS server on loopback serves now. */
export const servedFingerprint = (port: number, servername = 'localhost') =>
  new Promise<string>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const fp = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fp);
    });
    socket.on('error', reject);
  });
