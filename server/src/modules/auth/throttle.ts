import { AppError } from '../../http/errors.ts';
import type { AuthRepository } from './repository.ts';

/**
 * The brute-force budget every password check spends (login, forced change, LDAP login, the
 * verification password, own password change). It holds without configuration, whatever the
 * automatic lock says: ASVS 4.0.3 2.2.1 asks for at most 100 failures an hour on one account.
 */
export const throttlePolicy = {
  /** Failures are counted over this window. */
  windowSeconds: 3600,
  /** Failures against one account (from addresses it has not signed in from) before a delay starts. */
  accountFree: 5,
  /** Failures from one address (any account, so spraying too) before a delay starts. */
  addressFree: 20,
  /** The delay doubles from 1 s with each failure past the free ones, up to this. */
  maxDelaySeconds: 60,
  /** Failures an hour on one account, from anywhere: past this, no password is checked. */
  accountPerHour: 100,
  /** An address the account signed in from within this time skips the account's delay (not the hourly budget). */
  knownAddressSeconds: 30 * 86_400,
};

/** Seconds to wait after the last of `failures` failures when `free` come without delay. */
export const delayAfter = (failures: number, free: number): number =>
  failures < free ? 0 : Math.min(throttlePolicy.maxDelaySeconds, 2 ** (failures - free));

export interface Attempt {
  /** The password was right: the attempt no longer counts as a failure. */
  succeeded(): Promise<void>;
  /** No password was judged (a directory that did not answer): the attempt is forgotten. */
  dropped(): Promise<void>;
}

/**
 * Counting is atomic by construction: an attempt is written as a failure before the password is
 * checked and every other row counts, so of two concurrent guesses the later one sees the earlier
 * (in SQLite and PostgreSQL alike, and across a restart). A refused attempt is removed again.
 */
export const createLoginThrottle = (repo: AuthRepository, now: () => number) => ({
  /** Opens an attempt of `userName` from `ip` (empty: unknown), or refuses it with the seconds to wait. */
  async begin(userName: string, ip: string): Promise<Attempt> {
    const time = now();
    const id = await repo.openAttempt(userName, ip.slice(0, 64), time);
    // Now and then, forget attempts no rule reads any more (the known-address window is the longest).
    if (id % 200 === 0) await repo.purgeAttempts(time - throttlePolicy.knownAddressSeconds);
    const address = ip ? ip.slice(0, 64) : null;
    const failures = await repo.failuresSince(userName, address, time - throttlePolicy.windowSeconds, id);
    const ofAccount = failures.filter((f) => f.user_name === userName).map((f) => Number(f.time));
    const ofAddress = address ? failures.filter((f) => f.ip === address).map((f) => Number(f.time)) : [];
    const last = (times: number[]) => times[times.length - 1] ?? 0;
    let until = 0;
    if (ofAccount.length >= throttlePolicy.accountPerHour) {
      // Waits until the oldest failure that keeps the count at the budget leaves the window.
      const oldest = ofAccount[ofAccount.length - throttlePolicy.accountPerHour] ?? time;
      until = oldest + throttlePolicy.windowSeconds;
    }
    const known = address
      ? await repo.succeededFrom(userName, address, time - throttlePolicy.knownAddressSeconds)
      : false;
    // An attacker elsewhere cannot delay the owner's own address: the account lock-out turned throttle stays theirs.
    if (!known) until = Math.max(until, last(ofAccount) + delayAfter(ofAccount.length, throttlePolicy.accountFree));
    until = Math.max(until, last(ofAddress) + delayAfter(ofAddress.length, throttlePolicy.addressFree));
    if (until > time) {
      await repo.dropAttempt(id);
      throw new AppError('tooManyRequests', 'auth.tooManyAttempts', { seconds: until - time });
    }
    return {
      succeeded: async () => {
        await repo.markAttemptSucceeded(id);
      },
      dropped: async () => {
        await repo.dropAttempt(id);
      },
    };
  },
});

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
