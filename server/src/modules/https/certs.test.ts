import { describe, expect, it } from 'vitest';
import { makePair } from '../../../test/helpers/https-certs.ts';
import { AppError } from '../../http/errors.ts';
import { checkPair, describe as describeCert, parseChain, topOf } from './certs.ts';

const day = 86_400_000;
const now = Date.now();
const a = makePair('a.sitewatch.test');
const b = makePair('b.sitewatch.test');

/** The message key a refused pair gives. */
const refusal = (cert: string, key: string, at = now) => {
  try {
    checkPair(cert, key, at);
    return 'accepted';
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).key;
  }
};

describe('certificate and key checks', () => {
  it('accepts a matching pair and returns the normalised PEM texts', () => {
    const pair = checkPair(a.cert, a.key, now);
    expect(pair.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(pair.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(pair.chain).toHaveLength(1);
  });

  it('refuses a key of another certificate', () => {
    expect(refusal(a.cert, b.key)).toBe('https.validation.mismatch');
  });

  it('refuses garbage, a key where the certificate goes, an encrypted key', () => {
    expect(refusal('hello', a.key)).toBe('https.validation.certInvalid');
    expect(refusal('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', a.key)).toBe(
      'https.validation.certInvalid',
    );
    expect(refusal(a.key, a.key)).toBe('https.validation.certInvalid');
    expect(refusal(a.cert, 'garbage')).toBe('https.validation.keyInvalid');
    expect(refusal(a.cert, a.cert)).toBe('https.validation.keyInvalid');
    expect(refusal(a.cert, '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----')).toBe(
      'https.validation.keyEncrypted',
    );
  });

  it('refuses a certificate expired or not yet valid at the given clock', () => {
    const old = makePair('old.sitewatch.test', { from: now - 400 * day, to: now - day });
    expect(refusal(old.cert, old.key)).toBe('https.validation.expired');
    expect(refusal(a.cert, a.key, now + 20 * 365 * day)).toBe('https.validation.expired');
    const later = makePair('later.sitewatch.test', { from: now + 10 * day });
    expect(refusal(later.cert, later.key)).toBe('https.validation.notYetValid');
    // A CA's fresh certificate may start a moment ahead of this clock.
    expect(checkPair(later.cert, later.key, now, { fromCa: true }).chain).toHaveLength(1);
  });

  it('refuses a chain whose certificates do not sign each other', () => {
    expect(refusal(`${a.cert}\n${b.cert}`, a.key)).toBe('https.validation.chainBroken');
  });

  it('describes subject, names, expiry and days left; the top of the chain is the root to download', () => {
    const info = describeCert(parseChain(a.cert), 'upload', now);
    expect(info).toMatchObject({ subject: 'CN=a.sitewatch.test', names: ['a.sitewatch.test'], chain_length: 1 });
    expect(info.days_left).toBeGreaterThanOrEqual(3649);
    expect(info.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(topOf(parseChain(a.cert)).toString().trim()).toBe(a.cert.trim());
  });
});
