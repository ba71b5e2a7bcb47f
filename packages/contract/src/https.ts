import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * HTTPS of the console (002 §7.2 `setting/https`; issue 30 item 3; docs/https.md): the certificate
 * and key uploaded as PEM or issued by an ACME CA, the domain, the root certificate download, and
 * whether plain HTTP redirects. Validation messages are keys of the shared locale files (`https.*`).
 */

const msg = (key: string) => `https.validation.${key}`;
/** RSA-OAEP ciphertext of the caller's password (docs/auth.md). */
const encrypted = z.string().min(1).max(1024);
/** A PEM text: the largest chain a CA sends is a few kB; 64 kB leaves room and bounds the parse. */
const pem = (key: string) =>
  z
    .string({ message: msg(key) })
    .trim()
    .min(1, { message: msg(key) })
    .max(65_536, { message: msg('pemTooLong') });

/** A DNS name a certificate can be issued for (no scheme, port or path; a wildcard only in front). */
export const domainPattern = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, { message: msg('domain') })
  .refine((v) => v === '' || domainPattern.test(v), { message: msg('domain') });

/** What the installed certificate says (never the key). */
export const certificateInfo = z.object({
  subject: z.string(),
  issuer: z.string(),
  /** Names it is valid for (subjectAltName's DNS and IP entries). */
  names: z.array(z.string()),
  /** Epoch seconds. */
  not_before: z.number(),
  not_after: z.number(),
  /** Whole days left at the server's clock; negative once expired. */
  days_left: z.number(),
  /** SHA-256 fingerprint, colon-separated hex. */
  fingerprint: z.string(),
  /** Certificates in the uploaded chain (the leaf first). */
  chain_length: z.number(),
  source: z.enum(['upload', 'acme']),
});
export type CertificateInfo = z.infer<typeof certificateInfo>;

export const acmeState = z.object({
  enabled: z.boolean(),
  email: z.string(),
  directory_url: z.string(),
  /** Whether a CA certificate for the directory is set (a private ACME CA on the LAN). */
  has_directory_ca: z.boolean(),
  /** Epoch seconds of the last successful issuance, or null. */
  issued_at: z.number().nullable(),
  /** Why the last issuance or renewal failed, or null. */
  last_error: z.string().nullable(),
  /** Epoch seconds of the next renewal check while ACME is on. */
  next_check_at: z.number().nullable(),
});

export const httpsState = z.object({
  enabled: z.boolean(),
  redirect: z.boolean(),
  port: z.number(),
  domain: z.string(),
  certificate: certificateInfo.nullable(),
  /** The port HTTPS listens on now, or null; `listen_error` says why not. */
  listening_port: z.number().nullable(),
  listen_error: z.string().nullable(),
  acme: acmeState,
});
export type HttpsState = z.infer<typeof httpsState>;

export const httpsSettingsInput = z.strictObject({
  enabled: z.boolean(),
  redirect: z.boolean(),
  port: z.coerce
    .number({ message: msg('port') })
    .int({ message: msg('port') })
    .min(1, { message: msg('port') })
    .max(65535, {
      message: msg('port'),
    }),
  acme_enabled: z.boolean(),
  acme_email: z.union([z.literal(''), z.email({ message: msg('email') }).max(254, { message: msg('email') })]),
  acme_directory_url: z.union([
    z.literal(''),
    z.url({ protocol: /^https?$/, message: msg('directoryUrl') }).max(2048, { message: msg('directoryUrl') }),
  ]),
  /** PEM of the CA that signs the ACME directory's HTTPS (a private CA); '' for none; absent keeps it. */
  acme_directory_ca: z
    .string()
    .max(65_536, { message: msg('pemTooLong') })
    .optional(),
});
export type HttpsSettingsInput = z.infer<typeof httpsSettingsInput>;

export const certUpload = z.strictObject({
  cert_file: pem('certRequired'),
  key_file: pem('keyRequired'),
  verify_password: encrypted,
});
export type CertUpload = z.infer<typeof certUpload>;

export const domainInput = z.strictObject({ domain });

export const httpsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: 'setting/https',
    summary: 'HTTPS settings, the installed certificate (never its key) and the listener',
    tags: ['https'],
    response: httpsState,
  }),
  set: defineRoute({
    method: 'POST',
    path: 'setting/https',
    summary: 'Turn HTTPS, the redirect and ACME on or off; the HTTPS port and the ACME account',
    tags: ['https'],
    body: httpsSettingsInput,
    response: httpsState,
  }),
  rootCert: defineRoute({
    method: 'GET',
    path: 'setting/https/root_cert',
    summary: 'Download the top certificate of the installed chain (PEM)',
    tags: ['https'],
    response: z.string(),
  }),
  upload: defineRoute({
    method: 'POST',
    path: 'setting/https/cert_file',
    summary:
      'Install a certificate (cert_file) and its private key (key_file), checked to match (verification password)',
    tags: ['https'],
    body: certUpload,
    response: httpsState,
  }),
  domain: defineRoute({
    method: 'PUT',
    path: 'setting/https/domain',
    summary: 'The domain the console is reached by (ACME issues for it)',
    tags: ['https'],
    body: domainInput,
    response: httpsState,
  }),
  issue: defineRoute({
    method: 'POST',
    path: 'setting/https/acme',
    summary: 'Issue (or renew) the certificate from the ACME CA now',
    tags: ['https'],
    response: httpsState,
  }),
  challenge: defineRoute({
    method: 'GET',
    path: '/.well-known/acme-challenge/:token',
    summary: "ACME HTTP-01 challenge answer (public; only tokens of this server's own orders)",
    tags: ['https'],
    params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/) }),
    response: z.string(),
  }),
};

/** The page's menu id (docs/menus.md): /setting_port, the console's ports, holds the HTTPS settings. */
export const httpsMenu = 420;
