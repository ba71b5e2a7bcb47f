import { makePng } from './logo-images.ts';
import type { Example } from './route-examples.ts';
import { multipartFile } from './site-estate.ts';

/** A login logo of the recommended size (002 §9), a real PNG. */
const logo = makePng(290, 76, [30, 90, 200]);

/** The working calls of the branding area's write routes (docs/branding.md), spread into route-examples.ts. */
export const brandingRoutes: Record<string, Example> = {
  // The edition types live in the global settings row: the path names an entry of it, not a site's row.
  'PUT /api/v1/pub/edition/:id': {
    table: 'module_settings',
    params: () => ({ id: 1 }),
    body: () => ({ sys_name: 'Sitewatch', sys_show: true, active: true }),
  },
  'POST /api/v1/pub/info': {
    body: () => ({
      company: 'Acme',
      sys_name: 'Sitewatch',
      sys_show: true,
      support_show: false,
      support_info: '',
      sys_info_show: false,
      sys_info: '',
      filing_display: false,
      filing_info: '',
      filing_number: '',
      language: 'zh_cn',
    }),
  },
  'POST /api/v1/setting/maintain/logo/upload': {
    query: () => ({ type: 'login' }),
    upload: () => multipartFile('file', 'logo.png', logo, 'image/png'),
  },
  'DELETE /api/v1/setting/maintain/logo': { query: () => ({ type: 'main' }) },
  'GET /api/v1/pub/logo/:type': { params: () => ({ type: 'login' }) },
};

/**
 * The recovery (docs/recovery.md): a code made as `npm run recovery-code` makes it, exchanged for a
 * ticket. Each call spends its code or ticket, so a second call of the same route is refused (400).
 */
export const recoveryRoutes: Record<string, Example> = {
  'POST /api/v1/pub/login/root_login': {
    prepare: async ({ t }) => ({ code: (await t.sitewatch.services.recovery.issueCode()).code }),
    body: (_s, _e, p) => ({ code: p.code }),
  },
  'PUT /api/v1/user/rest_password': {
    prepare: async ({ t }) => {
      const { code } = await t.sitewatch.services.recovery.issueCode();
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/root_login', payload: { code } });
      return { ticket: res.json().data.reset_token };
    },
    body: (_s, e, p) => ({ reset_token: p.ticket, new_password: e.encrypt(e.password) }),
  },
};
