import { unique } from './estate-rows.ts';
import { type FakeFirewallHost, startFakeFirewallHost } from './firewall-host.ts';
import { makePair } from './https-certs.ts';
import { startPebble } from './pebble.ts';
import type { Example, Prepared } from './route-examples.ts';
import { multipartFile } from './site-estate.ts';

/**
 * The working calls of the system's routes (maintenance and backup, firewall, HTTPS, tools and the
 * SM4 key; issue 30), beside route-examples.ts's catalogue, which spreads them in.
 */

/** A certificate and its key for the HTTPS upload (openssl, valid ten years). */
const httpsPair = makePair('console.sitewatch.test');

/** Starts the stand-in firewall host once for the test file and points the server at it. */
let firewallHost: Promise<FakeFirewallHost> | null = null;
async function withFirewallHost(): Promise<Prepared> {
  firewallHost ??= startFakeFirewallHost({ unref: true });
  process.env.SITEWATCH_FIREWALL_SOCKET = (await firewallHost).socketPath;
  return {};
}

export const systemRoutes: Record<string, Example> = {
  // The system tools reach an address of the private ranges where devices live (docs/system.md);
  // nothing answers there, so each run ends at its shortest bound.
  'POST /api/v1/setting/maintain/tools/ping': { body: () => ({ host: '10.255.255.1', count: 1 }) },
  'POST /api/v1/setting/maintain/tools/traceroute': { body: () => ({ host: '10.255.255.1', max_hops: 1 }) },
  'POST /api/v1/setting/maintain/tools/port': { body: () => ({ host: '10.255.255.1', port: 9, timeout_ms: 100 }) },
  'POST /api/v1/setting/maintain/sm4': {
    body: (_s, e) => ({ enabled: false, key: '', verify_password: e.encrypt(e.password) }),
  },
  'POST /api/v1/setting/https': {
    body: () => ({
      enabled: false,
      redirect: false,
      port: 8443,
      acme_enabled: false,
      acme_email: '',
      acme_directory_url: '',
    }),
  },
  'POST /api/v1/setting/https/cert_file': {
    body: (_s, e) => ({ cert_file: httpsPair.cert, key_file: httpsPair.key, verify_password: e.encrypt(e.password) }),
  },
  'PUT /api/v1/setting/https/domain': { body: () => ({ domain: 'console.sitewatch.test' }) },
  // Issuance from a pebble of its own (every challenge taken as valid: the suites call by inject).
  'POST /api/v1/setting/https/acme': {
    prepare: async ({ api }) => {
      const pebble = await startPebble({ nonceReject: 10 });
      process.once('exit', () => pebble.stop());
      await api('PUT', 'setting/https/domain', { domain: 'console.sitewatch.test' });
      await api('POST', 'setting/https', {
        enabled: false,
        redirect: false,
        port: 8443,
        acme_enabled: false,
        acme_email: '',
        acme_directory_url: pebble.directoryUrl,
        acme_directory_ca: pebble.ca,
      });
      return {};
    },
  },
  // Custom menus (issue 31 item 4; docs/custom-menus.md): a link entry; its grants go with a delete.
  // One body for both sides: entries are global (no site of theirs to tell apart).
  'POST /api/v1/setting/menus': {
    body: () => ({ name: 'Vendor portal', parent_id: 0, url: 'https://portal.example.com/', weight: 1 }),
  },
  'PUT /api/v1/setting/menus/:id': {
    table: 'menus',
    make: async ({ api }) =>
      (await api('POST', 'setting/menus', { name: unique('entry'), parent_id: 0, url: '', weight: 1 })).id,
    body: () => ({ weight: 2, display: true }),
  },
  'DELETE /api/v1/setting/menus': {
    prepare: async ({ api }) => ({
      id: (await api('POST', 'setting/menus', { name: unique('entry'), parent_id: 0, url: '', weight: 1 })).id,
    }),
    body: (_s, _e, p) => ({ ids: [Number(p.id)] }),
  },
  'GET /api/v1/menus/link': { query: () => ({ url: 'https://portal.example.com/' }) },
  'GET /.well-known/acme-challenge/:token': { params: () => ({ token: 'no-such-token' }) },
  // A package made first: the restore puts back the estate of that moment (issue 30).
  'POST /api/v1/setting/maintain/mysql/restore': {
    prepare: async ({ api }) => ({ file: (await api('POST', 'setting/maintain/mysql/backup', {})).filename }),
    body: (_s, e, p) => ({ filename: p.file, verify_password: e.encrypt(e.password) }),
  },
  // A package of this install, downloaded, is what an upload takes.
  'POST /api/v1/setting/maintain/mysql/upload': {
    prepare: async ({ t, api }) => {
      const { filename } = await api('POST', 'setting/maintain/mysql/backup', {});
      const url = `/api/v1/setting/maintain/mysql/download?filename=${filename}`;
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer admin-token' } });
      return { pkg: res.rawPayload.toString('base64') };
    },
    upload: (_s, _e, p) =>
      multipartFile('file', 'package.tar', Buffer.from(String(p.pkg), 'base64'), 'application/x-tar'),
  },
  // No FTP server here: the copy is made, fails and is recorded (200 with ok false).
  'POST /api/v1/setting/maintain/ftp/sync': {
    prepare: async ({ api }) => ({ file: (await api('POST', 'setting/maintain/mysql/backup', {})).filename }),
    body: (_s, _e, p) => ({ filename: p.file }),
  },
  'PUT /api/v1/setting/maintain/ftp': {
    body: () => ({ host: 'ftp.example.test', port: 21, path: '/backups' }),
  },
  'POST /api/v1/setting/maintain/secret_key/export': {
    body: (_s, e) => ({ passphrase: 'carry this key', verify_password: e.encrypt(e.password) }),
  },
  // The install's own key, exported first: imported again, it changes nothing (changed false).
  'POST /api/v1/setting/maintain/secret_key/import': {
    prepare: async ({ api, estate }) => ({
      file: (
        await api('POST', 'setting/maintain/secret_key/export', {
          passphrase: 'carry this key',
          verify_password: estate.encrypt(estate.password),
        })
      ).file,
    }),
    body: (_s, e, p) => ({ file: p.file, passphrase: 'carry this key', verify_password: e.encrypt(e.password) }),
  },
  'DELETE /api/v1/setting/maintain/mysql/auto_list': {
    prepare: async ({ api }) => ({ file: (await api('POST', 'setting/maintain/mysql/backup', {})).filename }),
    body: (_s, _e, p) => ({ filename: p.file }),
  },
  // The firewall talks to its helper: a real one over a stand-in nft (helpers/firewall-host.ts).
  'POST /api/v1/setting/maintain/firewall/ports': {
    prepare: withFirewallHost,
    body: (_s, e) => ({
      rules: [{ direction: 'in', source: '10.9.0.0/16', port: '8080:8080', authorised: false }],
      verify_password: e.encrypt(e.password),
    }),
  },
  'POST /api/v1/setting/maintain/firewall/status/:Disabled': {
    prepare: withFirewallHost,
    params: () => ({ Disabled: '0' }),
    body: (_s, e) => ({ verify_password: e.encrypt(e.password) }),
  },
  // Keeping needs a change on trial: one that refuses the caller (inject's 127.0.0.1), kept in time.
  'POST /api/v1/setting/maintain/firewall/keep': {
    prepare: async ({ api, estate }) => {
      await withFirewallHost();
      const password = estate.encrypt(estate.password);
      await api('POST', 'setting/maintain/firewall/status/0', { verify_password: password });
      await api('POST', 'setting/maintain/firewall/ports', {
        rules: [{ direction: 'in', source: '127.0.0.1', port: '1:65535', authorised: false }],
        confirm: true,
        confirm_lockout: true,
        verify_password: password,
      });
      return {};
    },
    body: () => ({}),
  },
};
