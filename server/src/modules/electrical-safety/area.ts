import { defineArea } from '../../area.ts';
import { registerElectricalSafety } from './index.ts';

/** Electrical quality and safety: meters' figures, switches and their operation log (docs/electrical-safety.md). */
export const area = defineArea({
  name: 'electrical-safety',
  needs: ['audit', 'loginKey', 'energyQuality', 'passwordHasher', 'live', 'series'],
  tables: { electrical_meters: { sites: { device: 'device_id' } } },
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerElectricalSafety(app, {
        db: kernel.db,
        audit: needs.audit,
        loginKey: needs.loginKey,
        formulas: needs.energyQuality,
        passwords: needs.passwordHasher,
        live: needs.live,
        series: needs.series,
        clock: kernel.clock,
      }),
  }),
});
