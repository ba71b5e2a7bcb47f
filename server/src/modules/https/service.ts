import type { CertificateInfo, HttpsSettingsInput, HttpsState } from '@sitewatch/contract/https';
import { z } from 'zod';
import type { Timer, Timers } from '../../clock/timers.ts';
import type { SettingsStore } from '../../db/settings-store.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { TlsListening, TlsSource } from '../../http/tls.ts';
import type { AcmeIssuer } from './acme.ts';
import { checkPair, describe, parseChain, topOf } from './certs.ts';

/** The one settings row of the area (module_settings `HTTPS`); `key` and `acme_account_key` are sealed at rest. */
export const httpsSettings = z.object({
  enabled: z.boolean(),
  redirect: z.boolean(),
  port: z.number().int().min(1).max(65535),
  domain: z.string(),
  cert: z.string(),
  key: z.string(),
  source: z.enum(['upload', 'acme']),
  acme_enabled: z.boolean(),
  acme_email: z.string(),
  acme_directory_url: z.string(),
  acme_directory_ca: z.string(),
  acme_account_key: z.string(),
  issued_at: z.number().nullable(),
  last_error: z.string().nullable(),
});
export type HttpsSettings = z.infer<typeof httpsSettings>;
export const httpsSecretFields = ['key', 'acme_account_key'];

export const letsEncrypt = 'https://acme-v02.api.letsencrypt.org/directory';
export const defaultHttpsSettings: HttpsSettings = {
  enabled: false,
  redirect: false,
  port: 443,
  domain: '',
  cert: '',
  key: '',
  source: 'upload',
  acme_enabled: false,
  acme_email: '',
  acme_directory_url: letsEncrypt,
  acme_directory_ca: '',
  acme_account_key: '',
  issued_at: null,
  last_error: null,
};

/** Renewal: checked every hour (a cached read); a certificate with fewer days left than this is renewed. */
export const renewal = { checkEveryMs: 3_600_000, belowDays: 30 };

export interface HttpsServiceDeps {
  store: SettingsStore<{ HTTPS: HttpsSettings }>;
  acme: AcmeIssuer;
  clock: () => number;
  timers: Timers;
  /** Where plain HTTPS listens in tests (0: any free port); production takes the stored port. */
  listenHost?: string | undefined;
  /** An operation log line for a renewal no request made. */
  onRenewed?: (ok: boolean, detail: string) => Promise<void>;
}

export const createHttpsService = (deps: HttpsServiceDeps) => {
  const { store, clock } = deps;
  let listening: TlsListening = { port: null, error: null };
  let onChange: (() => Promise<void>) | null = null;
  let issuing: Promise<HttpsState> | null = null;
  let timer: Timer | null = null;
  let nextCheckAt: number | null = null;

  const infoOf = (s: HttpsSettings): CertificateInfo | null => {
    if (!s.cert) return null;
    try {
      return describe(parseChain(s.cert), s.source, clock());
    } catch {
      return null;
    }
  };
  const state = async (): Promise<HttpsState> => {
    const s = await store.get('HTTPS');
    return {
      enabled: s.enabled,
      redirect: s.redirect,
      port: s.port,
      domain: s.domain,
      certificate: infoOf(s),
      listening_port: listening.port,
      listen_error: listening.error,
      acme: {
        enabled: s.acme_enabled,
        email: s.acme_email,
        directory_url: s.acme_directory_url,
        has_directory_ca: s.acme_directory_ca !== '',
        issued_at: s.issued_at,
        last_error: s.last_error,
        next_check_at: s.acme_enabled && nextCheckAt !== null ? Math.floor(nextCheckAt / 1000) : null,
      },
    };
  };
  /** Stores and lets the listener apply the change before answering (the answer shows the port). */
  const save = async (next: HttpsSettings) => {
    await store.set('HTTPS', next);
    await onChange?.();
    return state();
  };

  /** After a restore (the area's `reload`): the restored settings, applied by the listener. */
  const reload = async () => {
    await store.reload();
    await onChange?.();
  };

  const tls: TlsSource = {
    wanted() {
      const s = store.peek('HTTPS');
      if (!s.enabled || !s.cert || !s.key) return null;
      return { cert: s.cert, key: s.key, port: s.port, host: deps.listenHost, redirect: s.redirect };
    },
    onChange(listener) {
      onChange = listener;
    },
    report(state) {
      listening = state;
    },
  };

  const issueNow = async (): Promise<HttpsState> => {
    const s = await store.get('HTTPS');
    if (!s.domain) throw badRequest('https.validation.domainRequired');
    if (!s.acme_directory_url) throw badRequest('https.validation.directoryUrl');
    try {
      const result = await deps.acme.issue({
        directoryUrl: s.acme_directory_url,
        directoryCa: s.acme_directory_ca,
        email: s.acme_email,
        domain: s.domain,
        accountKey: s.acme_account_key,
      });
      const pair = checkPair(result.cert, result.key, clock(), { fromCa: true });
      const now = await store.get('HTTPS');
      return await save({
        ...now,
        cert: pair.cert,
        key: pair.key,
        source: 'acme',
        acme_account_key: result.accountKey,
        issued_at: Math.floor(clock() / 1000),
        last_error: null,
      });
    } catch (err) {
      // The CA's own words (RFC 8555 problem details are English), or ours in English.
      const reason = (err instanceof AppError ? err.text('en_us') : (err as Error).message || String(err)).slice(
        0,
        500,
      );
      await store.set('HTTPS', { ...(await store.get('HTTPS')), last_error: reason });
      throw badRequest('https.errors.acme', { reason });
    }
  };
  /** One ACME run at a time: a second call waits for the first's answer. */
  const issue = () => {
    issuing ??= issueNow().finally(() => {
      issuing = null;
    });
    return issuing;
  };

  /** A renewal check: ACME on, a domain, and no certificate of its own or fewer than 30 days left. */
  const check = async () => {
    nextCheckAt = clock() + renewal.checkEveryMs;
    const s = await store.get('HTTPS');
    if (!s.acme_enabled || !s.domain) return;
    const info = infoOf(s);
    if (info && info.source === 'acme' && info.days_left >= renewal.belowDays) return;
    try {
      const after = await issue();
      await deps.onRenewed?.(true, after.certificate?.fingerprint ?? '');
    } catch (err) {
      await deps.onRenewed?.(false, (err as Error).message);
    }
  };

  return {
    state,
    tls,
    reload,
    challenges: deps.acme.challenges,
    issue,
    check,
    async setSettings(input: HttpsSettingsInput) {
      const s = await store.get('HTTPS');
      if (input.enabled && !s.cert) throw badRequest('https.validation.noCertificate');
      if (input.redirect && !input.enabled) throw badRequest('https.validation.redirectNeedsHttps');
      return save({
        ...s,
        enabled: input.enabled,
        redirect: input.redirect,
        port: input.port,
        acme_enabled: input.acme_enabled,
        acme_email: input.acme_email,
        acme_directory_url: input.acme_directory_url || letsEncrypt,
        ...(input.acme_directory_ca !== undefined ? { acme_directory_ca: input.acme_directory_ca.trim() } : {}),
      });
    },
    async upload(certText: string, keyText: string) {
      const pair = checkPair(certText, keyText, clock());
      return save({ ...(await store.get('HTTPS')), cert: pair.cert, key: pair.key, source: 'upload' });
    },
    async setDomain(domain: string) {
      return save({ ...(await store.get('HTTPS')), domain });
    },
    async rootCert() {
      const s = await store.get('HTTPS');
      if (!s.cert) throw notFound('https.validation.noCertificate');
      return topOf(parseChain(s.cert)).toString();
    },
    start() {
      nextCheckAt = clock() + renewal.checkEveryMs;
      timer = deps.timers.setInterval(() => check(), renewal.checkEveryMs);
      timer.unref();
    },
    stop() {
      deps.timers.clearInterval(timer);
      timer = null;
    },
    settled: async () => {
      if (!issuing) return false;
      await issuing.catch(() => undefined);
      return true;
    },
  };
};

export type HttpsService = ReturnType<typeof createHttpsService>;
