import { configArea } from '@sitewatch/contract/events';
import { autoBackupSettings, ftpSettings, latestBackup } from '@sitewatch/contract/maintenance';
import { defineArea } from '../../area.ts';
import { createFtpSync } from './ftp.ts';
import { registerMaintenance } from './index.ts';
import { createInstallKey } from './install-key.ts';
import { createBackupSchedule } from './schedule.ts';
import { createMaintenanceService, type MaintenanceService } from './service.ts';

declare module '../../area.ts' {
  interface Services {
    /** Backup packages and their restore (docs/maintenance.md). */
    maintenance: MaintenanceService;
  }
}

/**
 * Backup and restore (issue 30; docs/maintenance.md). What a package holds comes from every
 * declaration (`declarations`, given by the composition root): tables, upload folders, secrets.
 */
export const area = defineArea({
  name: 'maintenance',
  needs: ['declarations', 'secrets', 'auth', 'audit', 'globalConfig'],
  provides: ['maintenance'],
  settings: { backup_auto: autoBackupSettings, backup_latest: latestBackup, backup_ftp: ftpSettings },
  // The FTP password is sealed at rest and travels sealed in a package.
  secrets: [{ table: 'module_settings', key: 'backup_ftp', fields: ['password'] }],
  uploads: [],
  menus: [
    {
      id: 402,
      parent_id: 400,
      name_key: 'menu.backup',
      url: '/setting_backup',
      icon: 'database',
      weight: 85,
      functions: ['view'],
    },
  ],
  // A restore announces every topic for all ids: whatever keeps rows in memory re-reads them.
  events: { publishes: configArea.options.map((topic) => `config.changed:${topic}` as const) },
  create: ({ kernel, needs }) => {
    const ftp = createFtpSync({ kernel, secrets: needs.secrets, outbound: () => needs.globalConfig.get('OUTBOUND') });
    const service = createMaintenanceService({ kernel, declarations: needs.declarations, secrets: needs.secrets, ftp });
    const schedule = createBackupSchedule({
      timers: kernel.timers,
      clock: kernel.clock,
      settings: service.autoSettings,
      backup: () => service.create('config', true),
      onError: (err) => kernel.log.error({ err }, 'automatic backup failed'),
    });
    return {
      provides: { maintenance: service },
      routes: (app) =>
        registerMaintenance(app, {
          service,
          ftp,
          installKey: createInstallKey({ kernel, declarations: needs.declarations, secrets: needs.secrets }),
          auth: needs.auth,
          audit: needs.audit,
          reschedule: schedule.reschedule,
        }),
      start: async () => {
        await service.recover();
        await schedule.start();
      },
      stop: () => schedule.stop(),
      reload: async () => {
        await service.reload();
        await ftp.reload();
      },
    };
  },
});
