import { defineArea } from '../../area.ts';
import { loginSafeLockout } from './index.ts';

/** The login restrictions' guard: a change that would lock out the administrator making it is refused. */
export const area = defineArea({
  name: 'security',
  menus: [
    {
      id: 401,
      parent_id: 400,
      name_key: 'menu.security',
      url: '/setting_security',
      icon: 'lock',
      weight: 90,
      functions: ['edit', 'block'],
    },
  ],
  create: () => ({ contributes: { configGuards: [{ LOGIN_SAFE: loginSafeLockout() }] } }),
});
