export * from './envelope.ts';
export * from './errors.ts';
export * from './i18n.ts';
export * from './route.ts';
export * from './rules/dashboard.ts';
export * from './rules/login-restrictions.ts';
export * from './rules/password.ts';
export * from './value-format.ts';
