/**
 * The error catalogue as data: each stable `code` of the API and the locale key of its text.
 * The texts live in `locales/<lang>.json` of this package, so the server answers in the caller's
 * language and the web shows the same words.
 */
export const errorCodes = {
  ok: 0,
  notLoggedIn: -2,
  badRequest: 40000,
  loginFailed: 40100,
  captchaWrong: 40101,
  decryptFailed: 40102,
  passwordRules: 40103,
  accountLocked: 40301,
  accountDisabled: 40302,
  loginRestricted: 40303,
  invalidJson: 40001,
  unsupportedMediaType: 40002,
  payloadTooLarge: 40003,
  forbidden: 40300,
  notFound: 40400,
  methodNotAllowed: 40500,
  conflict: 40900,
  tooManyRequests: 42900,
  internal: 50000,
  unavailable: 50300,
} as const;

export type ErrorName = keyof typeof errorCodes;
export type ErrorCode = (typeof errorCodes)[ErrorName];

/** Locale key of each error's default text. */
export const errorKeys: Record<ErrorName, `errors.${string}`> = {
  ok: 'errors.ok',
  notLoggedIn: 'errors.notLoggedIn',
  badRequest: 'errors.badRequest',
  loginFailed: 'errors.loginFailed',
  captchaWrong: 'errors.captchaWrong',
  decryptFailed: 'errors.decryptFailed',
  passwordRules: 'errors.passwordRules',
  accountLocked: 'errors.accountLocked',
  accountDisabled: 'errors.accountDisabled',
  loginRestricted: 'errors.loginRestricted',
  invalidJson: 'errors.invalidJson',
  unsupportedMediaType: 'errors.unsupportedMediaType',
  payloadTooLarge: 'errors.payloadTooLarge',
  forbidden: 'errors.forbidden',
  notFound: 'errors.notFound',
  methodNotAllowed: 'errors.methodNotAllowed',
  conflict: 'errors.conflict',
  tooManyRequests: 'errors.tooManyRequests',
  internal: 'errors.internal',
  unavailable: 'errors.unavailable',
};

/** HTTP status of each error (DESIGN.md conventions). */
export const errorStatus: Record<ErrorName, number> = {
  ok: 200,
  notLoggedIn: 401,
  badRequest: 400,
  loginFailed: 400,
  captchaWrong: 400,
  decryptFailed: 400,
  passwordRules: 400,
  accountLocked: 403,
  accountDisabled: 403,
  loginRestricted: 403,
  invalidJson: 400,
  unsupportedMediaType: 415,
  payloadTooLarge: 413,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  tooManyRequests: 429,
  internal: 500,
  unavailable: 503,
};
