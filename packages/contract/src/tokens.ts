import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * Personal API tokens (docs/api.md, "API tokens"): a user makes a named, expiring token for a
 * script and sends it as `Authorization: Bearer <token>`. The token acts as its user with the
 * user's current grants, never more; a read-only token may only read. The secret is answered once,
 * at creation; the server keeps its SHA-256 digest only.
 */

/** Longest life of a token, and the life the form proposes. */
export const apiTokenMaxDays = 365;
export const apiTokenDefaultDays = 90;
/** Live (unrevoked, unexpired) tokens a user may hold at once. */
export const apiTokenMaxPerUser = 20;

/** `swt_` + 12 characters of public prefix + `_` + 43 characters of secret (base64url). */
export const apiTokenPattern = /^swt_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{43})$/;

const msg = (key: string) => `tokens.validation.${key}`;

export const apiTokenInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: msg('name') })
    .max(64, { message: msg('nameTooLong') })
    .describe('A name that says what the token is for, e.g. "energy export script" (1–64 characters).'),
  expires_in_days: z
    .number()
    .int({ message: msg('expiry') })
    .min(1, { message: msg('expiry') })
    .max(apiTokenMaxDays, { message: msg('expiry') })
    .default(apiTokenDefaultDays)
    .describe(`Days until the token expires, 1–${apiTokenMaxDays} (default ${apiTokenDefaultDays}).`),
  read_only: z
    .boolean()
    .default(false)
    .describe('Whether the token may only read: every request but GET is refused with 403.'),
});
export type ApiTokenInput = z.input<typeof apiTokenInput>;

export const apiTokenRow = z.object({
  id: z.number().int().describe('Token id (used to revoke it).'),
  user_id: z.number().int().describe('Id of the user the token acts as.'),
  user_name: z.string().describe('Name of that user.'),
  name: z.string().describe('What the token is for.'),
  prefix: z.string().describe('The public start of the token (swt_<prefix>_…), to tell tokens apart; not a secret.'),
  read_only: z.boolean().describe('Whether the token may only read (GET).'),
  created_at: z.number().int().describe('Creation time (epoch seconds).'),
  expires_at: z.number().int().describe('Expiry time (epoch seconds); the token answers 401 from then on.'),
  last_used_at: z
    .number()
    .int()
    .nullable()
    .describe('Last time the token was used (epoch seconds, to the minute), or null.'),
  last_used_ip: z.string().describe("Address of the token's last use, or ''."),
});
export type ApiTokenRow = z.infer<typeof apiTokenRow>;

export const apiTokenCreated = apiTokenRow.extend({
  token: z
    .string()
    .describe('The token, to send as `Authorization: Bearer <token>`. Answered this once only: copy it now.'),
});
export type ApiTokenCreated = z.infer<typeof apiTokenCreated>;

const idParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647).describe('Token id.'),
});

export const tokensRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'user/api_tokens',
    summary: 'The caller’s live API tokens (every user’s for the administrator with all=1); never the secrets',
    tags: ['tokens'],
    query: z.object({
      all: z.enum(['0', '1']).optional().describe('1: every user’s tokens (administrator only).'),
    }),
    response: z.object({
      total: z.number().int().describe('Number of tokens.'),
      data: z.array(apiTokenRow).describe('Live tokens, newest first.'),
    }),
  }),
  create: defineRoute({
    method: 'POST',
    path: 'user/api_tokens',
    summary:
      'Create an API token for the caller (from a signed-in session, not from another token); the secret is answered once',
    tags: ['tokens'],
    body: apiTokenInput,
    response: apiTokenCreated,
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: 'user/api_tokens/:id',
    summary: 'Revoke an API token at once (the caller’s own; any user’s for the administrator)',
    tags: ['tokens'],
    params: idParams,
    response: z.null(),
  }),
};
