import { defineArea } from '../../area.ts';
import { initialPasswordFile } from './first-start.ts';
import {
  type AuthService,
  createAuthRepository,
  createAuthService,
  createLoginPolicy,
  ensureAdmin,
  type LoginKey,
  type PasswordChecker,
  registerAuth,
} from './index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

declare module '../../area.ts' {
  interface Services {
    /** The RSA key that protects passwords on the way from the browser (the composition root's). */
    loginKey: LoginKey;
    auth: AuthService;
    /** Hashes and checks passwords as sign-in does (argon2id), for other areas' own passwords. */
    passwordHasher: {
      hash(password: string): Promise<string>;
      verify(hash: string, password: string): Promise<boolean>;
    };
  }
  interface Families {
    /** Checks the password of users of another login type (LDAP) instead of the stored hash. */
    passwordCheckers: PasswordChecker;
  }
}

/** Sign-in, sessions, auto-login, captcha and passwords (000 §2.2, §5; docs/auth.md). */
export const area = defineArea({
  name: 'auth',
  needs: ['globalConfig', 'audit', 'access', 'loginKey'],
  provides: ['auth', 'passwordHasher'],
  tables: {
    users: { sites: 'global' },
    sessions: { sites: 'global', backup: false },
    device_tokens: { sites: 'global', backup: false },
    captchas: { sites: 'global', backup: false },
    login_attempts: { sites: 'global', backup: false },
  },
  create: ({ kernel, needs, all }) => {
    const { db, clock } = kernel;
    const passwordFile = initialPasswordFile(db, kernel.config.dataDir);
    const auth = createAuthService({
      repo: createAuthRepository(db),
      policy: createLoginPolicy(db, needs.globalConfig, clock),
      config: needs.globalConfig,
      loginKey: needs.loginKey,
      audit: needs.audit,
      clock,
      passwordCheckers: () => all('passwordCheckers'),
      onPasswordChanged: async (userId) => {
        if (userId !== 1) return;
        await passwordFile
          .dropOnceChanged()
          .catch((err) => kernel.log.warn({ err }, 'could not remove the initial password file'));
      },
    });
    return {
      provides: { auth, passwordHasher: { hash: hashPassword, verify: verifyPassword } },
      async prepare() {
        const password = await ensureAdmin(createAuthRepository(db), clock);
        await passwordFile.dropOnceChanged();
        if (!password) return undefined;
        // Written before the server answers, so whoever sees it ready finds the file.
        passwordFile.write(password);
        return {
          info: [
            { msg: 'first start: the initial password of admin is in the file', obj: { file: passwordFile.file } },
          ],
          banner: [
            `First start: sign in as admin with password ${password}`,
            `(also in ${passwordFile.file}; you will be asked to change it)`,
          ],
        };
      },
      routes: (app) =>
        registerAuth(app, {
          auth,
          loginKey: needs.loginKey,
          config: needs.globalConfig,
          access: needs.access,
          rateLimit: kernel.config.loginRateLimit,
        }),
    };
  },
});
