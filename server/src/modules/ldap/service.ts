import { randomBytes } from 'node:crypto';
import { nowSeconds } from '@sitewatch/contract';
import type { LoginAnswer } from '@sitewatch/contract/auth';
import {
  type LdapConfig,
  type LdapImportResult,
  type LdapSettingsInput,
  type LdapSettingsView,
  type LdapTestResult,
  loginTypes,
  type RemoteUser,
  remoteUserListCap,
} from '@sitewatch/contract/ldap';
import type { OperationLogDetail } from '@sitewatch/contract/operation-log';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, type FieldError } from '../../http/errors.ts';
import type { AuthService, RequestMeta } from '../auth/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import {
  DirectoryError,
  type DirectorySession,
  type DirectorySettings,
  filterForList,
  filterProblem,
  withDirectory,
} from './directory.ts';
import type { LdapRepository, LocalUser } from './repository.ts';

export interface LdapDeps {
  repo: LdapRepository;
  config: GlobalConfig;
  audit: AuditLog;
  auth: Pick<AuthService, 'loginVerifiedBy'>;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  clock?: () => number;
}

/** Users a connection test counts (and names a few of). */
const testCountLimit = 1000;
const testSampleSize = 5;

const viewOf = ({ bind_password, ...settings }: LdapConfig): LdapSettingsView => ({
  ...settings,
  bind_password_set: bind_password.length > 0,
});

/**
 * A password hash no password verifies (not a PHC string), random so no two users share it:
 * LDAP users' passwords are checked by the directory only.
 */
const unusablePasswordHash = () => `!ldap!${randomBytes(24).toString('base64url')}`;

const invalid = (fields: FieldError[]) => new AppError('badRequest', fields[0]?.message, {}, fields);

/** A directory failure as the administrator sees it: which stage failed and why. */
const directoryProblem = (err: unknown): never => {
  if (err instanceof DirectoryError)
    throw new AppError('badRequest', `ldap.errors.${err.stage}`, { reason: err.reason });
  throw err;
};

/**
 * LDAP settings, connection test, the directory's user list, import, and LDAP login. Login goes
 * through the auth service, so captcha, restrictions, account lock, audit and session are the
 * local login's own; this service only says whether the directory accepts the password.
 */
export const createLdapService = ({ repo, config, audit, auth, log, clock = Date.now }: LdapDeps) => {
  const now = () => nowSeconds(clock());
  /** Every conversation with the directory goes only where the outbound policy allows. */
  const directory = async <T>(settings: DirectorySettings, work: (session: DirectorySession) => Promise<T>) =>
    withDirectory(settings, await config.get('OUTBOUND'), work);

  /** The settings as edited, with the kept bind password unless a new one is given. */
  const merged = async (input: LdapSettingsInput): Promise<LdapConfig> => {
    const stored = await config.get('LDAP');
    const { bind_password, ...rest } = input;
    return { ...rest, bind_password: bind_password ?? stored.bind_password };
  };

  /** Checks that need more than the schema: the filter parses, a bind DN has a password. */
  const checkSettings = (settings: LdapConfig): FieldError[] => {
    const fields: FieldError[] = [];
    if (filterProblem(filterForList(settings))) {
      fields.push({ path: 'body.user_filter', message: 'ldap.validation.filter' });
    }
    if (settings.bind_dn && !settings.bind_password) {
      fields.push({ path: 'body.bind_password', message: 'ldap.validation.bindPasswordRequired' });
    }
    return fields;
  };

  /** Roles and user group of new users must exist; at least one role and a group are needed. */
  const checkGrants = async (roleIds: number[], groupId: number | null, where: { roles: string; group: string }) => {
    const fields: FieldError[] = [];
    const unique = [...new Set(roleIds)];
    const existing = await repo.existingRoleIds(unique);
    if (existing.length !== unique.length) fields.push({ path: where.roles, message: 'ldap.validation.roleUnknown' });
    if (groupId !== null && !(await repo.userGroupExists(groupId))) {
      fields.push({ path: where.group, message: 'ldap.validation.groupUnknown' });
    }
    return fields;
  };

  const enabledConfig = async () => {
    const settings = await config.get('LDAP');
    if (!settings.enabled) throw new AppError('badRequest', 'ldap.errors.disabled');
    return settings;
  };

  const newUser = async (
    profile: Parameters<LdapRepository['insertLdapUser']>[0],
    roleIds: number[],
    groupId: number,
  ) => repo.insertLdapUser(profile, unusablePasswordHash(), [...new Set(roleIds)], groupId, now());

  return {
    async getSettings(): Promise<LdapSettingsView> {
      return viewOf(await config.get('LDAP'));
    },

    async setSettings(input: LdapSettingsInput, who: { user_id: number; user_name: string; ip: string }) {
      const settings = await merged(input);
      const fields = [
        ...checkSettings(settings),
        ...(await checkGrants(settings.default_role_ids, settings.default_user_group_id, {
          roles: 'body.default_role_ids',
          group: 'body.default_user_group_id',
        })),
      ];
      if (fields.length > 0) throw invalid(fields);
      await config.set('LDAP', settings);
      const { bind_password: _secret, ...logged } = settings;
      await audit.write({
        module: 'ldap',
        action: 'update',
        target: '',
        success: true,
        detail: JSON.stringify({ ...logged, bind_password_changed: input.bind_password !== undefined }),
        ...who,
      });
      return viewOf(settings);
    },

    /** Connects, binds and searches with the settings as edited; nothing is stored. */
    async test(input: LdapSettingsInput): Promise<LdapTestResult> {
      const settings = await merged(input);
      const fields = checkSettings(settings);
      if (!settings.base_dn) fields.push({ path: 'body.base_dn', message: 'ldap.validation.baseDnRequired' });
      if (fields.length > 0) throw invalid(fields);
      const users = await directory(settings, (dir) => dir.search(filterForList(settings), testCountLimit)).catch(
        directoryProblem,
      );
      return { users_found: users.length, sample: users.slice(0, testSampleSize).map((u) => u.user_name) };
    },

    async remoteUsers(query: { page: number; limit: number; name?: string | undefined }) {
      const settings = await enabledConfig();
      const found = await directory(settings, (dir) =>
        dir.search(filterForList(settings, query.name), remoteUserListCap),
      ).catch(directoryProblem);
      found.sort((a, b) => a.user_name.localeCompare(b.user_name) || a.dn.localeCompare(b.dn));
      const page = found.slice((query.page - 1) * query.limit, query.page * query.limit);
      const locals = new Map((await repo.usersByNames(page.map((u) => u.user_name))).map((u) => [u.user_name, u]));
      const data: RemoteUser[] = page.map((u) => {
        const local = locals.get(u.user_name);
        return { ...u, user_id: local?.id ?? null, imported: local?.login_type === loginTypes.ldap };
      });
      return { total: found.length, data };
    },

    async importUsers(
      body: { user_names: string[]; role_ids?: number[] | undefined; user_group_id?: number | null | undefined },
      who: { user_id: number; user_name: string; ip: string },
    ): Promise<LdapImportResult> {
      const settings = await enabledConfig();
      const roleIds = body.role_ids ?? settings.default_role_ids;
      const groupId = body.user_group_id === undefined ? settings.default_user_group_id : body.user_group_id;
      const fields = await checkGrants(roleIds, groupId, { roles: 'body.role_ids', group: 'body.user_group_id' });
      if (roleIds.length === 0) fields.push({ path: 'body.role_ids', message: 'ldap.validation.roleRequired' });
      if (groupId === null) fields.push({ path: 'body.user_group_id', message: 'ldap.validation.groupRequired' });
      if (fields.length > 0 || groupId === null) throw invalid(fields);
      const names = [...new Set(body.user_names)];
      // Every entry is read from the directory first, so a failure there imports nobody.
      const entries = await directory(settings, async (dir) => {
        const out = [];
        for (const name of names) out.push({ name, entry: await dir.findUser(name) });
        return out;
      }).catch(directoryProblem);
      const result: LdapImportResult = { imported: [], skipped: [] };
      for (const { name, entry } of entries) {
        if (!entry) {
          result.skipped.push({ user_name: name, reason: 'not_found' });
          continue;
        }
        const { dn: _dn, ...profile } = entry;
        const id = await newUser(profile, roleIds, groupId);
        if (id === null) result.skipped.push({ user_name: entry.user_name, reason: 'exists' });
        else result.imported.push({ user_name: entry.user_name, id });
      }
      await audit.write({
        module: 'ldap',
        action: 'import',
        target: result.imported.map((u) => u.user_name).join(','),
        success: true,
        detail: { code: 'ldapImport', params: { imported: result.imported.length, skipped: result.skipped.length } },
        ...who,
      });
      return result;
    },

    /**
     * The verification password of an LDAP user (002 §5.3): their directory password, checked by
     * binding as their entry. A directory that cannot be reached is said so, not taken as a wrong password.
     */
    async checkOwnPassword(userName: string, password: string): Promise<boolean> {
      const settings = await config.get('LDAP');
      if (!settings.enabled) return false;
      return directory(settings, async (dir: DirectorySession) => {
        const entry = await dir.findUser(userName);
        return entry !== null && entry.user_name === userName && (await dir.checkPassword(entry.dn, password));
      }).catch((err) => {
        if (!(err instanceof DirectoryError)) throw err;
        log?.warn({ stage: err.stage, reason: err.reason }, 'LDAP verification password: directory failure');
        throw new AppError('badRequest', 'ldap.errors.loginUnavailable');
      });
    },

    /**
     * POST pub/login/ldap: the auth service's login, with the directory deciding the password.
     * The name is looked up with the service account and the filter; the password is checked by
     * binding as the entry found. A local account of login type 1 is never reached this way.
     */
    async login(
      input: { user_name: string; password: string; captcha_id: string; captcha_code: string; remember: boolean },
      meta: RequestMeta,
    ): Promise<LoginAnswer> {
      const settings = await enabledConfig();
      const refuse = async (detail: OperationLogDetail, error: AppError, userName: string, userId?: number) => {
        await audit.write({
          module: 'auth',
          action: 'login',
          target: userName,
          success: false,
          detail,
          ip: meta.ip,
          user_id: userId ?? null,
        });
        throw error;
      };
      const check = async (userName: string, password: string, typed: LocalUser | undefined) => {
        const verified = await directory(settings, async (dir: DirectorySession) => {
          const entry = await dir.findUser(userName);
          if (!entry) return null;
          const local = typed?.user_name === entry.user_name ? typed : await repo.findUserByName(entry.user_name);
          if (local && local.login_type !== loginTypes.ldap) return null;
          if (!(await dir.checkPassword(entry.dn, password))) return null;
          return { entry, local };
        }).catch(async (err) => {
          if (!(err instanceof DirectoryError)) throw err;
          log?.warn({ stage: err.stage, reason: err.reason }, 'LDAP login: directory failure');
          return refuse(
            { code: 'ldapUnavailable', params: { reason: `${err.stage}: ${err.reason}` } },
            new AppError('badRequest', 'ldap.errors.loginUnavailable'),
            userName,
          );
        });
        if (!verified) return null;
        const { entry, local } = verified;
        const { dn: _dn, user_name, ...profile } = entry;
        if (local) {
          await repo.updateProfile(local.id, profile, now());
          return { ...local, ...profile };
        }
        if (!settings.auto_create) {
          return refuse({ code: 'ldapNotImported' }, new AppError('forbidden', 'ldap.errors.notImported'), userName);
        }
        const roleIds = await repo.existingRoleIds(settings.default_role_ids);
        const groupId = settings.default_user_group_id;
        if (roleIds.length === 0 || groupId === null || !(await repo.userGroupExists(groupId))) {
          return refuse({ code: 'ldapNoDefaults' }, new AppError('forbidden', 'ldap.errors.notImported'), userName);
        }
        await newUser({ user_name, ...profile }, roleIds, groupId);
        const created = await repo.findUserByName(user_name);
        if (!created) return null;
        await audit.write({
          module: 'ldap',
          action: 'auto_create',
          target: user_name,
          success: true,
          ip: meta.ip,
          user_id: created.id,
          user_name,
        });
        return created;
      };
      return auth.loginVerifiedBy('ldap', input, meta, check);
    },
  };
};

export type LdapService = ReturnType<typeof createLdapService>;
