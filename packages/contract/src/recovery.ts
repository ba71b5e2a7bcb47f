import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * The recovery of a locked-out administrator (002 §7.4 pub/login/root_login, user/rest_password;
 * docs/recovery.md): a one-time code printed by a command run on the box (`npm run recovery-code`)
 * is exchanged for a short-lived reset ticket, which sets a new password for the administrator.
 * Never a backdoor: no code exists until someone with the box's shell makes one.
 */

/** Message keys (shared locale files, section `recovery`). */
export const recoveryMessages = {
  codeEmpty: 'recovery.codeEmpty',
  codeWrong: 'recovery.codeWrong',
  codeExpired: 'recovery.codeExpired',
  codeNone: 'recovery.codeNone',
  tooMany: 'recovery.tooMany',
  ticketInvalid: 'recovery.ticketInvalid',
  accepted: 'recovery.accepted',
  done: 'recovery.done',
} as const;

/** How long a printed code is valid, and how many wrong tries destroy it. */
export const recoveryRules = { codeMinutes: 15, ticketMinutes: 10, attempts: 5 } as const;

export const rootLoginBody = z.object({
  code: z
    .string({ error: recoveryMessages.codeEmpty })
    .trim()
    .min(1, { message: recoveryMessages.codeEmpty })
    .max(64, { message: recoveryMessages.codeWrong })
    .describe('The recovery code `npm run recovery-code` printed on the box (dashes and case do not matter).'),
});

export const rootLoginAnswer = z.object({
  reset_token: z.string().describe('The one-time ticket for user/rest_password.'),
  user_name: z.string().describe('The administrator whose password it resets.'),
  expires_in: z.number().int().describe('Seconds the ticket stays valid.'),
});
export type RootLoginAnswer = z.infer<typeof rootLoginAnswer>;

export const restPasswordBody = z.object({
  reset_token: z
    .string({ error: recoveryMessages.ticketInvalid })
    .min(1, { message: recoveryMessages.ticketInvalid })
    .max(128, { message: recoveryMessages.ticketInvalid }),
  new_password: z
    .string({ error: 'users.passwordTooShort' })
    .min(1, { message: 'users.passwordTooShort' })
    .max(2048)
    .describe('The new password, encrypted with the login key like a login.'),
});

export const recoveryRoutes = {
  rootLogin: defineRoute({
    method: 'POST',
    path: 'pub/login/root_login',
    summary: "Exchange the box's one-time recovery code for a reset ticket of the administrator",
    tags: ['recovery'],
    body: rootLoginBody,
    response: rootLoginAnswer,
  }),
  restPassword: defineRoute({
    method: 'PUT',
    path: 'user/rest_password',
    summary: "Set the administrator's new password with a reset ticket (unlocks and enables the account)",
    tags: ['recovery'],
    body: restPasswordBody,
    response: z.object({ user_name: z.string() }),
  }),
} as const;
