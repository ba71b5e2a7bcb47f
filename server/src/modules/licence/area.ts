import { readFileSync } from 'node:fs';
import type { TableName } from '../../area.ts';
import { defineArea } from '../../area.ts';
import { loadAreas } from '../../areas.ts';
import { type CountedTable, createLicenceService, type LicenceService, registerLicence } from './index.ts';
import { defaultTrialDays, vendorPublicKey } from './vendor-key.ts';

declare module '../../area.ts' {
  interface Services {
    /** The licence: status, activation, quotas (docs/licence.md). */
    licence: LicenceService;
  }
}

/** The latest time seen is kept at least this often while the server runs (ms). */
const touchEvery = 10 * 60_000;

/** The tables the areas declare a quota over (`tables.<t>.quota`): the licence imports no area. */
const countedTables = async (): Promise<CountedTable[]> =>
  (await loadAreas()).flatMap((area) =>
    Object.entries(area.tables ?? {}).flatMap(([table, declared]) =>
      declared?.quota ? [{ table: table as TableName, ...declared.quota }] : [],
    ),
  );

/**
 * The public key: the start-up facts' (tests), else the file SITEWATCH_LICENCE_PUBLIC_KEY names (a
 * test installation, the journeys), else the vendor's built-in one.
 */
const publicKeyPem = (given: string | undefined) => {
  if (given) return given;
  const file = process.env.SITEWATCH_LICENCE_PUBLIC_KEY;
  return file ? readFileSync(file, 'utf8') : vendorPublicKey;
};

/** Licence and activation (000 §2.2, §4.6; 002 §4; docs/licence.md). */
export const area = defineArea({
  name: 'licence',
  provides: ['licence'],
  menus: [
    {
      id: 415,
      parent_id: 400,
      name_key: 'menu.softwareVersion',
      url: '/software_version',
      icon: 'info-circle',
      weight: 10,
    },
  ],
  create: async ({ kernel }) => {
    const counted = await countedTables();
    const licence = createLicenceService({
      db: kernel.db,
      clock: kernel.clock,
      publicKeyPem: publicKeyPem(kernel.config.licence?.publicKey),
      trialDays: kernel.config.licence?.trialDays ?? defaultTrialDays,
      counted,
    });
    let timer: ReturnType<typeof kernel.timers.setInterval> | null = null;
    return {
      provides: { licence },
      prepare: async () => {
        const info = await licence.info();
        return { info: [{ msg: 'licence', obj: { sn: info.sn, status: info.status, remain_days: info.remain_days } }] };
      },
      routes: (app) => registerLicence(app, { licence, db: kernel.db, counted }),
      start: async () => {
        await licence.touch();
        timer = kernel.timers.setInterval(() => licence.touch(), touchEvery);
      },
      reload: async () => licence.reload(),
      stop: () => {
        kernel.timers.clearInterval(timer);
      },
    };
  },
});
