import { describe, expect, it } from 'vitest';
import { checkPassword, defaultPwdComplexity, type PwdComplexityConfig, passwordExpiry } from './password.ts';

const all: PwdComplexityConfig = {
  ...defaultPwdComplexity,
  opt_exclude_username: true,
  opt_mix_up_lo_letter: true,
  opt_contain_num: true,
  opt_contain_spec_char: true,
  opt_reject_same_pwd: true,
  opt_reject_frequent_pwd: true,
  opt_min_len_enabled: true,
  opt_min_len: 10,
};
const isCommon = (p: string) => ['password', 'Password1!x'].includes(p);

describe('password rules (000 §5, 002 §5.2)', () => {
  it.each([
    ['excludeUsername', { ...all, opt_exclude_username: true }, 'xxAdminxx1!Q', 'xx1!Qzz9aaW', 'admin'],
    ['mixedCase', all, 'lowercase1!zz', 'Lowercase1!zz', 'u'],
    ['digit', all, 'NoDigits!!zzA', 'NoDigits!!zzA1', 'u'],
    ['specialChar', all, 'NoSpecial1zzA', 'NoSpecial1zzA#', 'u'],
    ['notCommon', { ...all, opt_min_len: 6 }, 'Password1!x', 'Unusual7!qk', 'u'],
    ['minLength', all, 'Sh0rt!a', 'L0nger!abcd', 'u'],
  ] as const)('%s: breaks with %s and passes with %s', (rule, config, bad, good, userName) => {
    expect(checkPassword({ password: bad, userName, isCommon }, config)).toContain(rule);
    expect(checkPassword({ password: good, userName, isCommon }, config)).not.toContain(rule);
  });

  it('differFromOld applies only when the old password is known', () => {
    const input = { password: 'Same-Pass-123', userName: 'u', isCommon };
    expect(checkPassword({ ...input, oldPassword: 'Same-Pass-123' }, all)).toEqual(['differFromOld']);
    expect(checkPassword({ ...input, oldPassword: 'Other-Pass-123' }, all)).toEqual([]);
    expect(checkPassword(input, all)).toEqual([]);
  });

  it('rules apply only as enabled', () => {
    expect(checkPassword({ password: 'a', userName: 'a', isCommon }, { ...all, enabled: false })).toEqual([]);
    const none = { ...all, opt_exclude_username: false, opt_mix_up_lo_letter: false, opt_contain_num: false };
    expect(checkPassword({ password: 'aaaaaaaaaaaaa!', userName: 'aaa', isCommon }, none)).toEqual([]);
  });

  it('the defaults (OWASP ASVS) ask for length 8 and no common password only', () => {
    expect(checkPassword({ password: 'short', userName: 'u', isCommon }, defaultPwdComplexity)).toEqual(['minLength']);
    expect(checkPassword({ password: 'password', userName: 'u', isCommon }, defaultPwdComplexity)).toEqual([
      'notCommon',
    ]);
    expect(checkPassword({ password: 'correct horse', userName: 'u', isCommon }, defaultPwdComplexity)).toEqual([]);
  });

  it('counts length in characters, not UTF-16 units', () => {
    expect(checkPassword({ password: '😀😀😀😀😀😀😀😀', userName: 'u' }, defaultPwdComplexity)).toEqual([]);
  });

  describe('validity', () => {
    const config = {
      ...defaultPwdComplexity,
      opt_validity_enabled: true,
      opt_validity_days: 90,
      opt_expire_prompt_days: 7,
    };
    const day = 86_400;
    it.each([
      [0, { expired: false, tip: false, daysLeft: 90 }],
      [84 * day, { expired: false, tip: true, daysLeft: 6 }],
      [90 * day, { expired: true, tip: false, daysLeft: 0 }],
    ])('%i s after the change → %o', (elapsed, result) => {
      expect(passwordExpiry(config, 2, 1_000_000, 1_000_000 + elapsed)).toEqual(result);
    });
    it('never expires for always-valid users or with validity off', () => {
      expect(passwordExpiry({ ...config, always_valid_user_ids: [2] }, 2, 0, 1e9).expired).toBe(false);
      expect(passwordExpiry(defaultPwdComplexity, 2, 0, 1e9).expired).toBe(false);
    });
  });
});
