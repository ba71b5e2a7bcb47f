import type { Area } from './area.ts';
import { registerAccessRoutes } from './modules/access/index.ts';
import { registerAlarms } from './modules/alarms/index.ts';
import { apiTokensArea } from './modules/api-tokens/index.ts';
import { registerAuth } from './modules/auth/index.ts';
import { hashPassword, verifyPassword } from './modules/auth/passwords.ts';
import { registerDashboard } from './modules/dashboard/index.ts';
import { registerDeviceView } from './modules/device-view/index.ts';
import { dutyArea } from './modules/duty/index.ts';
import { electricalSafetyArea } from './modules/electrical-safety/index.ts';
import { energyArea } from './modules/energy/index.ts';
// The quality formulas are pure functions of the energy module, shared with electrical safety.
import * as energyQuality from './modules/energy/quality.ts';
import { registerGlobalConfigRoutes } from './modules/global-config/index.ts';
import { registerHealth } from './modules/health/index.ts';
import { inspectionArea } from './modules/inspection/index.ts';
import { registerLdap } from './modules/ldap/index.ts';
import { registerMonitoring } from './modules/monitoring/index.ts';
import { networkArea } from './modules/network/index.ts';
import { registerNotify } from './modules/notify/index.ts';
import { registerReports } from './modules/reports/index.ts';
import { loginSafeLockout } from './modules/security/index.ts';
import { registerSeries } from './modules/series/index.ts';
import { topViewArea } from './modules/top-view/index.ts';
import { grantRulesOf, registerUsers } from './modules/users/index.ts';
import { workOrdersArea } from './modules/work-orders/index.ts';

/**
 * The product's areas, registered in this order by app.ts. A new area (site-map editor, work
 * orders, energy…) exports its `Area` from its module's index.ts and is added here: it takes what
 * it needs from the kernel, subscribes to the bus, and never touches main.ts or app.ts.
 */
export const areas: Area[] = [
  { name: 'health', register: (k) => registerHealth(k.app, { db: k.db }) },
  {
    name: 'monitoring',
    register: (k) =>
      registerMonitoring(k.app, { db: k.db, collector: k.live, audit: k.audit, bus: k.bus, secrets: k.secrets }),
  },
  { name: 'series', register: (k) => registerSeries(k.app, { db: k.db, series: k.series, config: k.config }) },
  { name: 'reports', register: (k) => registerReports(k.app, { db: k.db, live: k.live }) },
  { name: 'device-view', register: (k) => registerDeviceView(k.app, { db: k.db, series: k.series, live: k.live }) },
  networkArea,
  {
    name: 'auth',
    register: (k) =>
      registerAuth(k.app, {
        auth: k.auth,
        loginKey: k.loginKey,
        config: k.config,
        access: k.access,
        rateLimit: k.loginRateLimit,
      }),
  },
  { name: 'access', register: (k) => registerAccessRoutes(k.app, k.db, k.access) },
  {
    name: 'global-config',
    register: (k) => registerGlobalConfigRoutes(k.app, k.config, k.audit, { LOGIN_SAFE: loginSafeLockout() }),
  },
  {
    name: 'users',
    register: (k) => {
      registerUsers(k.app, { db: k.db, auth: k.auth, audit: k.audit, clock: k.clock, bus: k.bus });
    },
  },
  {
    name: 'ldap',
    register: (k) =>
      registerLdap(k.app, {
        db: k.db,
        config: k.config,
        audit: k.audit,
        auth: k.auth,
        grants: grantRulesOf(k.db),
        rateLimit: k.loginRateLimit,
        clock: k.clock,
      }),
  },
  {
    name: 'alarms',
    register: (k) =>
      registerAlarms(k.app, {
        db: k.db,
        engine: k.alarms,
        bus: k.bus,
        settings: k.alarmSettings,
        audit: k.audit,
        auth: k.auth,
      }),
  },
  {
    name: 'notify',
    register: (k) =>
      registerNotify(k.app, {
        db: k.db,
        notifier: k.notifier,
        settings: k.alarmSettings,
        audit: k.audit,
        auth: k.auth,
        bus: k.bus,
        secrets: k.secrets,
      }),
  },
  {
    name: 'dashboard',
    register: (k) =>
      registerDashboard(k.app, {
        db: k.db,
        dataDir: k.dataDir,
        alarms: k.alarms,
        collector: k.collector,
        notifier: k.notifier,
        audit: k.audit,
        clock: k.clock,
        timers: k.timers,
      }),
  },
  apiTokensArea,
  topViewArea,
  inspectionArea,
  energyArea,
  dutyArea,
  workOrdersArea,
  electricalSafetyArea({ formulas: energyQuality, passwords: { hash: hashPassword, verify: verifyPassword } }),
];
