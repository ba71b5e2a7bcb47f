import { systemMenus } from '@sitewatch/contract/system';
import { defineArea } from '../../area.ts';
import { registerSystem } from './index.ts';
import { createSystemService, sm4SecretFields, sm4Settings } from './service.ts';
import { createTools } from './tools.ts';

/**
 * System information, network tools, protocol downloads, the debug log and the SM4 key (002 §2.1
 * System; 002 §7.2 setting/maintain/sm4 and the debug-log download; docs/system.md). The time periods
 * (monitoring's `setting/time_periods`) get their spec page, /week_time, here.
 */
export const area = defineArea({
  name: 'system',
  needs: ['audit', 'auth', 'globalConfig', 'estateCounts', 'licence', 'secrets'],
  settings: { sm4: sm4Settings },
  secrets: [{ table: 'module_settings', key: 'sm4', fields: sm4SecretFields }],
  menus: [
    {
      id: systemMenus.sysInformation,
      parent_id: 400,
      name_key: 'menu.sysInformation',
      url: '/sys_information',
      icon: 'info-circle',
      weight: 390,
      functions: ['view'],
    },
    { id: systemMenus.tools, parent_id: 400, name_key: 'menu.tools', url: '/tools', icon: 'tool', weight: 380 },
    {
      id: systemMenus.downloadProtocol,
      parent_id: 400,
      name_key: 'menu.downloadProtocol',
      url: '/download_protocol',
      icon: 'download',
      weight: 370,
    },
    {
      id: systemMenus.secretList,
      parent_id: 400,
      name_key: 'menu.secretList',
      url: '/secret_list',
      icon: 'key',
      weight: 360,
    },
    {
      id: systemMenus.weekTime,
      parent_id: 400,
      name_key: 'menu.weekTime',
      url: '/week_time',
      icon: 'schedule',
      weight: 350,
      functions: ['view'],
    },
  ],
  create: ({ kernel, needs }) => {
    const service = createSystemService({
      db: kernel.db,
      dataDir: kernel.config.dataDir,
      estate: needs.estateCounts,
      licence: needs.licence,
      secrets: needs.secrets,
      clock: kernel.clock,
    });
    const tools = createTools({ outbound: () => needs.globalConfig.get('OUTBOUND'), clock: kernel.clock });
    return {
      routes: (app) => registerSystem(app, { service, tools, audit: needs.audit, auth: needs.auth }),
      reload: () => service.reload(),
    };
  },
});
