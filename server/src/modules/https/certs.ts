import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { CertificateInfo } from '@sitewatch/contract/https';
import { badRequest } from '../../http/errors.ts';

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text, the leaf first; a text with none or an unreadable one is refused. */
export const parseChain = (text: string): X509Certificate[] => {
  const blocks = text.match(pemBlock) ?? [];
  if (blocks.length === 0) throw badRequest('https.validation.certInvalid');
  if (blocks.length > 10) throw badRequest('https.validation.chainTooLong');
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch {
    throw badRequest('https.validation.certInvalid');
  }
};

/** The private key of a PEM text (unencrypted PKCS#8, PKCS#1 or SEC1); a passphrase-protected one is refused. */
export const parseKey = (text: string): KeyObject => {
  if (/ENCRYPTED/.test(text)) throw badRequest('https.validation.keyEncrypted');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) throw badRequest('https.validation.keyInvalid');
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw badRequest('https.validation.keyInvalid');
  }
};

const seconds = (date: string) => Math.floor(Date.parse(date) / 1000);

/** subjectAltName's DNS and IP names ("DNS:a, IP Address:1.2.3.4" → ["a", "1.2.3.4"]). */
const namesOf = (cert: X509Certificate) =>
  (cert.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:') || entry.startsWith('IP Address:'))
    .map((entry) => entry.slice(entry.indexOf(':') + 1));

/** What a certificate says, at `nowMs` (the server's clock). */
export const describe = (
  chain: X509Certificate[],
  source: CertificateInfo['source'],
  nowMs: number,
): CertificateInfo => {
  const leaf = chain[0]!;
  const notAfter = seconds(leaf.validTo);
  return {
    subject: leaf.subject.replace(/\n/g, ', '),
    issuer: leaf.issuer.replace(/\n/g, ', '),
    names: namesOf(leaf),
    not_before: seconds(leaf.validFrom),
    not_after: notAfter,
    days_left: Math.floor((notAfter - nowMs / 1000) / 86_400),
    fingerprint: leaf.fingerprint256,
    chain_length: chain.length,
    source,
  };
};

/**
 * Checks an uploaded pair before anything is stored: both readable, the key the certificate's
 * (`X509Certificate.checkPrivateKey`), the certificate valid now, each certificate of the chain
 * signed by the next. Returns the normalised PEM texts. `fromCa`: a certificate the ACME CA just
 * issued, which may start a moment in this clock's future.
 */
export const checkPair = (certText: string, keyText: string, nowMs: number, { fromCa = false } = {}) => {
  const chain = parseChain(certText);
  const key = parseKey(keyText);
  const leaf = chain[0]!;
  if (!leaf.checkPrivateKey(key)) throw badRequest('https.validation.mismatch');
  const now = nowMs / 1000;
  if (seconds(leaf.validTo) <= now) throw badRequest('https.validation.expired', { date: leaf.validTo });
  // A CA's fresh certificate may start a moment after this clock (no back-dating, a skewed clock): kept.
  if (!fromCa && seconds(leaf.validFrom) > now)
    throw badRequest('https.validation.notYetValid', { date: leaf.validFrom });
  for (let i = 0; i + 1 < chain.length; i++) {
    if (!chain[i]!.verify(chain[i + 1]!.publicKey)) throw badRequest('https.validation.chainBroken');
  }
  return {
    cert: `${chain.map((c) => c.toString().trim()).join('\n')}\n`,
    key: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    chain,
  };
};

/** The top certificate of a chain (its root, or the one nearest to it): what a browser must trust. */
export const topOf = (chain: X509Certificate[]) => chain[chain.length - 1]!;
