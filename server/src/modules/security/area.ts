import { defineArea } from '../../area.ts';
import { loginSafeLockout } from './index.ts';

/** The login restrictions' guard: a change that would lock out the administrator making it is refused. */
export const area = defineArea({
  name: 'security',
  create: () => ({ contributes: { configGuards: [{ LOGIN_SAFE: loginSafeLockout() }] } }),
});
