import { type CodePayload, makeVendorKeys, signCode } from '../../src/modules/licence/code.ts';

/** A vendor key pair of this test process: every test app verifies codes with its public key. */
export const testLicenceKeys = makeVendorKeys();

/** An activation code signed by the test vendor key (defaults: a permanent code with large quotas). */
export const testLicenceCode = (sn: string, over: Partial<CodePayload> = {}, privateKey = testLicenceKeys.privateKey) =>
  signCode(
    { sn, edition: 'standard', expires: 0, devices: 100_000, items: 1_000_000, categories: {}, issued: 0, ...over },
    privateKey,
  );
