import { createHash, randomBytes } from 'node:crypto';
import type { Language } from '@sitewatch/contract';
import { type RootLoginAnswer, recoveryRules } from '@sitewatch/contract/recovery';
import { AppError } from '../../http/errors.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import {
  consumeRecoveryCode,
  destroyRecoveryCode,
  issueRecoveryCode,
  matchesCode,
  readRecoveryCode,
  recordFailure,
} from './code-file.ts';

type Meta = { ip: string };

/**
 * The recovery of a locked-out administrator (docs/recovery.md): the box's one-time code for a
 * reset ticket (root_login), the ticket for a new password (rest_password). Tickets are kept
 * hashed in memory: a restart voids them (the code is spent; run the command again). Every try,
 * right or wrong, is in the operation log.
 */
export const createRecoveryService = (deps: {
  dataDir: string;
  clock: () => number;
  auth: Pick<AuthService, 'acceptNewPassword' | 'firstAdministrator' | 'restoreAccess'>;
  audit: AuditLog;
}) => {
  const { dataDir, audit } = deps;
  const now = () => Math.floor(deps.clock() / 1000);
  const tickets = new Map<string, { user_id: number; expires_at: number }>();
  const ticketHash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
  // One recovery step at a time: two tries cannot both read the same count of failures.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work, work);
    chain = run.catch(() => undefined);
    return run;
  };

  const administrator = () => deps.auth.firstAdministrator();

  const refuse = async (
    action: 'login' | 'change_password',
    code:
      | 'recoveryCodeWrong'
      | 'recoveryCodeExpired'
      | 'recoveryCodeNone'
      | 'recoveryTooMany'
      | 'recoveryTicketInvalid',
    key: string,
    meta: Meta,
  ): Promise<never> => {
    await audit.write({ module: 'recovery', action, target: 'admin', success: false, detail: { code }, ip: meta.ip });
    throw new AppError('badRequest', key);
  };

  return {
    /** What `npm run recovery-code` does, on this server's data dir and clock (tests). */
    issueCode: () => issueRecoveryCode(dataDir, deps.clock()),

    rootLogin: (code: string, meta: Meta): Promise<RootLoginAnswer> =>
      serial(async () => {
        const row = await readRecoveryCode(dataDir);
        if (!row) return refuse('login', 'recoveryCodeNone', 'recovery.codeNone', meta);
        if (row.expires_at <= now()) {
          await destroyRecoveryCode(dataDir);
          return refuse('login', 'recoveryCodeExpired', 'recovery.codeExpired', meta);
        }
        if (!matchesCode(row, code)) {
          if (row.failures + 1 >= recoveryRules.attempts) {
            await destroyRecoveryCode(dataDir);
            return refuse('login', 'recoveryTooMany', 'recovery.tooMany', meta);
          }
          await recordFailure(dataDir, row);
          return refuse('login', 'recoveryCodeWrong', 'recovery.codeWrong', meta);
        }
        if (!(await consumeRecoveryCode(dataDir)))
          return refuse('login', 'recoveryCodeNone', 'recovery.codeNone', meta);
        const admin = await administrator();
        if (!admin) return refuse('login', 'recoveryCodeNone', 'recovery.codeNone', meta);
        for (const [hash, t] of tickets) if (t.expires_at <= now()) tickets.delete(hash);
        const ticket = randomBytes(32).toString('base64url');
        const expires_in = recoveryRules.ticketMinutes * 60;
        tickets.set(ticketHash(ticket), { user_id: admin.id, expires_at: now() + expires_in });
        await audit.write({
          module: 'recovery',
          action: 'login',
          target: admin.user_name,
          success: true,
          detail: { code: 'recoveryCodeAccepted' },
          ip: meta.ip,
        });
        return { reset_token: ticket, user_name: admin.user_name, expires_in };
      }),

    resetPassword: (ticket: string, encryptedPassword: string, language: Language, meta: Meta) =>
      serial(async () => {
        const hash = ticketHash(ticket);
        const held = tickets.get(hash);
        const admin = await administrator();
        if (!held || held.expires_at <= now() || !admin) {
          if (held) tickets.delete(hash);
          return refuse('change_password', 'recoveryTicketInvalid', 'recovery.ticketInvalid', meta);
        }
        // The password rules apply as to any new password; a refusal keeps the ticket for another try.
        const password_hash = await deps.auth.acceptNewPassword(encryptedPassword, admin.user_name, language);
        tickets.delete(hash);
        await deps.auth.restoreAccess(admin.id, password_hash);
        await audit.write({
          module: 'recovery',
          action: 'change_password',
          target: admin.user_name,
          success: true,
          detail: { code: 'passwordReset' },
          ip: meta.ip,
          user_id: admin.id,
          user_name: admin.user_name,
        });
        return { user_name: admin.user_name };
      }),
  };
};

export type RecoveryService = ReturnType<typeof createRecoveryService>;
