import { sharedText } from '@sitewatch/contract';
import type { LoginSafeConfig } from '@sitewatch/contract/auth';
import type { FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { terminalRefusal } from '../auth/index.ts';

/**
 * Refuses a change of the login restrictions that would lock out the administrator who makes it
 * (their own address, browser, the current time, the allow list, 002 §5.3), with the reason.
 */
export const loginSafeLockout =
  () =>
  async (
    value: LoginSafeConfig,
    request: FastifyRequest,
  ): Promise<{ key: string; values: Record<string, string> } | null> => {
    const language = requestLanguage(request);
    const refusal = terminalRefusal(
      value,
      { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') },
      new Date(),
    );
    const reasonKey =
      refusal ??
      (value.allow_list.enabled && !value.allow_list.user_ids.includes(request.principal?.user_id ?? -1)
        ? 'lockoutAllowList'
        : null);
    return reasonKey ? { key: 'users.lockout', values: { reason: sharedText(language, `users.${reasonKey}`) } } : null;
  };
