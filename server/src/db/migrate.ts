import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './migrations/0001-foundation.ts';
import * as m0002 from './migrations/0002-accounts.ts';
import * as m0003 from './migrations/0003-monitoring.ts';
import * as m0004 from './migrations/0004-users.ts';
import * as m0005 from './migrations/0005-ldap.ts';
import * as m0006 from './migrations/0006-alarms.ts';
import * as m0007 from './migrations/0007-reports.ts';
import * as m0008 from './migrations/0008-dashboard.ts';
import * as m0009 from './migrations/0009-device-log.ts';
import * as m0010auth from './migrations/0010-auth-throttle.ts';
import * as m0011modbus from './migrations/0011-modbus.ts';
import * as m0012maxAge from './migrations/0012-max-age.ts';
import * as m0013tokens from './migrations/0013-api-tokens.ts';
import * as m0014points from './migrations/0014-point-tables.ts';
import * as m0015network from './migrations/0015-network-devices.ts';
import * as m0016topView from './migrations/0016-top-view.ts';
import * as m0017inspectionDuty from './migrations/0017-inspection-duty.ts';
import * as m0018energy from './migrations/0018-energy.ts';
import * as m0019workOrders from './migrations/0019-work-orders.ts';
import * as m0020workOrderDuty from './migrations/0020-work-order-duty.ts';
import * as m0021energyHourly from './migrations/0021-energy-hourly.ts';
import * as m0022electricalSafety from './migrations/0022-electrical-safety.ts';
import * as m0023energyMenus from './migrations/0023-energy-menus.ts';
import * as m0024electricStatistics from './migrations/0024-electric-statistics-menu.ts';
import * as m0025seriesBlocks from './migrations/0025-series-blocks.ts';
import * as m0026dutySites from './migrations/0026-duty-sites.ts';
import * as m0027itemState from './migrations/0027-item-state.ts';
import * as m0028itemCheckInterval from './migrations/0028-item-check-interval.ts';
import * as m0029energyMeasured from './migrations/0029-energy-measured.ts';
import * as m0030holes from './migrations/0030-captcha-images-and-upload-owners.ts';
import * as m0031itemPurpose from './migrations/0031-item-purpose.ts';
import * as m0032automation from './migrations/0032-automation.ts';
import * as m0033video from './migrations/0033-video.ts';
import * as m0034doorAccess from './migrations/0034-door-access.ts';
import * as m0035alarmSources from './migrations/0035-alarm-sources.ts';
import * as m0036confirmActions from './migrations/0036-confirm-actions.ts';
import * as m0037eventOutbox from './migrations/0037-event-outbox.ts';
import * as m0038rateLimits from './migrations/0038-rate-limits.ts';

/** One set of versioned migrations for both SQLite and PostgreSQL, applied in name order. */
const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-accounts': m0002,
  '0003-monitoring': m0003,
  '0004-users': m0004,
  '0005-ldap': m0005,
  '0006-alarms': m0006,
  '0007-reports': m0007,
  '0008-dashboard': m0008,
  '0009-device-log': m0009,
  '0010-auth-throttle': m0010auth,
  '0011-modbus': m0011modbus,
  '0012-max-age': m0012maxAge,
  '0013-api-tokens': m0013tokens,
  '0014-point-tables': m0014points,
  '0015-network-devices': m0015network,
  '0016-top-view': m0016topView,
  '0017-inspection-duty': m0017inspectionDuty,
  '0018-energy': m0018energy,
  '0019-work-orders': m0019workOrders,
  '0020-work-order-duty': m0020workOrderDuty,
  '0021-energy-hourly': m0021energyHourly,
  '0022-electrical-safety': m0022electricalSafety,
  '0023-energy-menus': m0023energyMenus,
  '0024-electric-statistics-menu': m0024electricStatistics,
  '0025-series-blocks': m0025seriesBlocks,
  '0026-duty-sites': m0026dutySites,
  '0027-item-state': m0027itemState,
  '0028-item-check-interval': m0028itemCheckInterval,
  '0029-energy-measured': m0029energyMeasured,
  '0030-captcha-images-and-upload-owners': m0030holes,
  '0031-item-purpose': m0031itemPurpose,
  '0032-automation': m0032automation,
  '0033-video': m0033video,
  '0034-door-access': m0034doorAccess,
  '0035-alarm-sources': m0035alarmSources,
  '0036-confirm-actions': m0036confirmActions,
  '0037-event-outbox': m0037eventOutbox,
  '0038-rate-limits': m0038rateLimits,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export const migrateToLatest = async (db: Kysely<any>): Promise<string[]> => {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
};
