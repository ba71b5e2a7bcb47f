/**
 * The vendor's public key: activation codes are verified with it (docs/licence.md). Its private key
 * is kept by the vendor (tools/licence, `keys/` is never committed) and is in no file of the product.
 */
export const vendorPublicKey = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAEleL/oWERiWJGIoCDHsY8Fk63EGJa4z07l/HvfUrseM=
-----END PUBLIC KEY-----
`;

/** Days of the trial from the first start when the start-up facts name none. */
export const defaultTrialDays = 30;
