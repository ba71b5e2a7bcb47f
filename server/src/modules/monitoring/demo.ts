import { type Language, sharedText } from '@sitewatch/contract';
import { deviceInput } from '@sitewatch/contract/monitoring';
import type { DemoScenario } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { siteScope } from '../access/index.ts';
import { calm } from './demo-calm.ts';
import { createMonitoringRepository } from './repository.ts';
import { createMonitoringService } from './service.ts';

/** Devices of one demo site: template id, category, name prefix, count (22 devices, 250 items). */
const siteMix: Array<[number, string, string, number]> = [
  [2, 'ups', 'UPS', 3],
  [3, 'air', 'AC', 5],
  [4, 'power_meter', 'PM', 8],
  [1, 'temp_hum', 'TH', 3],
  [5, 'leak', 'LEAK', 1],
  [6, 'smoke', 'SMOKE', 1],
  [7, 'door', 'DOOR', 1],
];
const sites: Array<[string, number, number]> = [
  ['monitoring.demo.site1', 116.397128, 39.916527],
  ['monitoring.demo.site2', 121.473701, 31.230416],
  ['monitoring.demo.site3', 113.264385, 23.129112],
];

/**
 * The demo estate a newcomer sees on first start: three sites with 66 simulated devices and 750
 * items (UPS, precision air conditioners, power meters, temperature and humidity, leak, smoke,
 * door), a healthy installation that raises no alarm by itself (demo-calm.ts); `scenarios` add
 * what it shows on purpose. Runs only on an empty database; `SITEWATCH_DEMO=0` skips it (README).
 */
export const seedDemo = async (
  db: Db,
  lang: Language = 'zh_cn',
  scenarios: readonly DemoScenario[] = [],
): Promise<{ sites: number; devices: number } | null> => {
  const repo = createMonitoringRepository(db);
  if ((await repo.countSites()) > 0) return null;
  const service = createMonitoringService({ repo });
  // The demo is made by the system itself, which reaches every site.
  const everySite = siteScope(null);
  let devices = 0;
  for (const [key, longitude, latitude] of sites) {
    const site = await service.createSite(
      {
        name: sharedText(lang, key),
        parent_id: 0,
        weight: 100 - devices,
        has_device: true,
        longitude,
        latitude,
        background: '',
        scene: '',
        extend: '',
      },
      everySite,
    );
    for (const [templateId, code, prefix, count] of siteMix) {
      for (let n = 1; n <= count; n++) {
        const input = deviceInput.parse({
          name: `${prefix}-${String(n).padStart(2, '0')}`,
          device_group_id: site.id,
          driver: 'simulator',
          code,
          template_id: templateId,
          check_interval: 10,
        });
        await service.createDevice(input, lang, everySite);
        devices += 1;
      }
    }
  }
  await calm(db, scenarios);
  return { sites: sites.length, devices };
};
