import { defineArea } from '../../area.ts';
import { type ApiTokenService, apiTokenService, registerApiTokens } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** Personal API tokens: the composition root accepts them wherever a session token is. */
    apiTokens: ApiTokenService;
  }
}

/** Personal API tokens (swt_…) of each user (docs/api.md, "API tokens"). */
export const area = defineArea({
  name: 'tokens',
  needs: ['globalConfig', 'audit', 'access'],
  provides: ['apiTokens'],
  tables: { api_tokens: { sites: 'global' } },
  create: ({ kernel, needs }) => {
    const deps = { db: kernel.db, config: needs.globalConfig, audit: needs.audit, clock: kernel.clock };
    return {
      provides: { apiTokens: apiTokenService(deps) },
      routes: (app) => registerApiTokens(app, { ...deps, access: needs.access }),
    };
  },
});
