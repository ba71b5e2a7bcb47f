import { z } from 'zod';

/**
 * PWD_COMPLEXITY (000 §3, §5; 002 §5.2). The spec's fields, plus validity: days a password stays
 * valid, the prompt before expiry, and the users whose password is always valid.
 * Defaults follow OWASP ASVS: a minimum length and the common-password check on; composition rules
 * and expiry available but off until an administrator turns them on.
 */
export const pwdComplexityConfig = z.object({
  enabled: z.boolean(),
  opt_exclude_username: z.boolean(),
  opt_mix_up_lo_letter: z.boolean(),
  opt_contain_num: z.boolean(),
  opt_contain_spec_char: z.boolean(),
  opt_reject_same_pwd: z.boolean(),
  opt_reject_frequent_pwd: z.boolean(),
  opt_min_len_enabled: z.boolean(),
  opt_min_len: z.number().int().min(6).max(64),
  opt_validity_enabled: z.boolean(),
  opt_validity_days: z.number().int().min(1).max(3650),
  opt_expire_prompt_days: z.number().int().min(0).max(365),
  always_valid_user_ids: z.array(z.number().int().positive()).max(10_000),
});
export type PwdComplexityConfig = z.infer<typeof pwdComplexityConfig>;

export const defaultPwdComplexity: PwdComplexityConfig = {
  enabled: true,
  opt_exclude_username: false,
  opt_mix_up_lo_letter: false,
  opt_contain_num: false,
  opt_contain_spec_char: false,
  opt_reject_same_pwd: false,
  opt_reject_frequent_pwd: true,
  opt_min_len_enabled: true,
  opt_min_len: 8,
  opt_validity_enabled: false,
  opt_validity_days: 90,
  opt_expire_prompt_days: 7,
  always_valid_user_ids: [],
};

/** One broken rule; the texts are `password.rules.<rule>` in the locale files. */
export const passwordRules = [
  'excludeUsername',
  'mixedCase',
  'digit',
  'specialChar',
  'differFromOld',
  'notCommon',
  'minLength',
] as const;
export type PasswordRule = (typeof passwordRules)[number];

/** Longest password accepted: argon2 works on any length, but a bound keeps requests cheap. */
export const passwordMaxLength = 128;

export interface PasswordCheckInput {
  password: string;
  userName: string;
  /** The current password, when known (change of password). */
  oldPassword?: string | undefined;
  /** Whether the password is on the common-password list (the server holds the list). */
  isCommon?: ((password: string) => boolean) | undefined;
}

/**
 * The rules a password breaks under `config`, in a stable order; empty when it is acceptable.
 * @example checkPassword({ password: 'abc', userName: 'admin' }, defaultPwdComplexity) // ['minLength']
 */
export const checkPassword = (input: PasswordCheckInput, config: PwdComplexityConfig): PasswordRule[] => {
  if (!config.enabled) return [];
  const { password, userName } = input;
  const broken: PasswordRule[] = [];
  if (config.opt_exclude_username && userName && password.toLowerCase().includes(userName.toLowerCase())) {
    broken.push('excludeUsername');
  }
  if (config.opt_mix_up_lo_letter && !(/[a-z]/.test(password) && /[A-Z]/.test(password))) broken.push('mixedCase');
  if (config.opt_contain_num && !/[0-9]/.test(password)) broken.push('digit');
  if (config.opt_contain_spec_char && !/[^A-Za-z0-9]/.test(password)) broken.push('specialChar');
  if (config.opt_reject_same_pwd && input.oldPassword !== undefined && input.oldPassword === password) {
    broken.push('differFromOld');
  }
  if (config.opt_reject_frequent_pwd && input.isCommon?.(password)) broken.push('notCommon');
  if (config.opt_min_len_enabled && [...password].length < config.opt_min_len) broken.push('minLength');
  return broken;
};

/** Whether the password changed at `changedAt` has expired at `now` (both epoch seconds). */
export const passwordExpiry = (
  config: PwdComplexityConfig,
  userId: number,
  changedAt: number,
  now: number,
): { expired: boolean; daysLeft: number | null; tip: boolean } => {
  if (!config.enabled || !config.opt_validity_enabled || config.always_valid_user_ids.includes(userId)) {
    return { expired: false, daysLeft: null, tip: false };
  }
  const expiresAt = changedAt + config.opt_validity_days * 86_400;
  const daysLeft = Math.ceil((expiresAt - now) / 86_400);
  return { expired: now >= expiresAt, daysLeft, tip: now < expiresAt && daysLeft <= config.opt_expire_prompt_days };
};
