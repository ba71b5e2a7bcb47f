import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of STYLE.md are Biome rules (biome.json overrides). Biome matches an import
 * as it is spelled, so a rule that never fires looks exactly like a rule that holds: this probe lints
 * throw-away sources at the real relative paths, under a copy of biome.json in a temp dir, and
 * expects each forbidden import to be reported and each allowed one to pass.
 */
const root = path.resolve(import.meta.dirname, '..');
const biome = path.join(root, 'node_modules', '.bin', 'biome');

/** Lints one probe file per case in one Biome run; answers the set of probe files reported. */
const reported = (cases: Array<[string, string]>) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-boundaries-'));
  try {
    const config = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8'));
    delete config.vcs;
    delete config.$schema;
    writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
    const files = cases.map(([file, specifier], i) => {
      const probe = file.replace(/probe(\.tsx?)$/, `probe-${i}$1`);
      mkdirSync(path.join(dir, path.dirname(probe)), { recursive: true });
      writeFileSync(path.join(dir, probe), `import '${specifier}';\n`);
      return probe;
    });
    const result = spawnSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(result.stdout) as {
      diagnostics: Array<{ category: string; location: { path: string } }>;
    };
    const hits = new Set(
      report.diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports').map((d) => d.location.path),
    );
    return files.map((f) => hits.has(f));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const forbidden: Array<[string, string]> = [
  ['web/src/features/alarms/probe.ts', '../users/routes.tsx'],
  ['web/src/features/alarms/pages/probe.tsx', '../../users/routes.tsx'],
  ['web/src/features/device-view/components/tabs/probe.tsx', '../../../users/routes.tsx'],
  ['web/src/features/alarms/probe.ts', '../../app/router.tsx'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../app/shell/top-bar.tsx'],
  ['web/src/features/device-view/components/tabs/probe.tsx', '../../../../app/router.tsx'],
  ['server/src/modules/alarms/probe.ts', '../users/repository.ts'],
  ['server/src/modules/alarms/probe.ts', '../../modules/users/repository.ts'],
  ['server/src/modules/alarms/sub/probe.ts', '../../users/service.ts'],
  ['packages/contract/src/probe.ts', 'node:fs'],
  ['web/src/editor/model/probe.ts', 'react'],
  ['e2e/specs/probe.ts', '@playwright/test'],
  // A feature climbing out to src/ and back into another feature, or into app/, however spelled.
  ['web/src/features/alarms/probe.ts', '../../features/users/routes.tsx'],
  ['web/src/features/alarms/probe.ts', '../../../src/features/users/routes.tsx'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../features/users/api.ts'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../../src/features/users/api.ts'],
  ['web/src/features/device-view/components/tabs/probe.tsx', '../../../../../features/users/routes.tsx'],
  ['web/src/features/alarms/probe.ts', '../../../src/app/router.tsx'],
  ['web/src/features/device-view/components/tabs/probe.tsx', '../../../../../../src/app/shell/top-bar.tsx'],
  // The shared layer never imports app/ or a feature.
  ['web/src/components/probe.tsx', '../app/providers.tsx'],
  ['web/src/components/probe.tsx', '../features/users/routes.tsx'],
  ['web/src/components/sub/probe.tsx', '../../../src/features/users/routes.tsx'],
  ['web/src/api/probe.ts', '../features/alarms/api.ts'],
  ['web/src/session/probe.ts', '../app/router.tsx'],
  ['web/src/i18n/probe.ts', '../app/antd-locales.ts'],
  ['web/src/test/probe.tsx', '../app/providers.tsx'],
  ['web/src/editor/model/probe.ts', '../../app/router.tsx'],
  ['web/src/editor/model/probe.ts', '../../features/site-map/api.ts'],
  // Engines never import an area.
  ['server/src/alarms/probe.ts', '../modules/work-orders/index.ts'],
  ['server/src/alarms/rules/probe.ts', '../../modules/alarms/index.ts'],
  ['server/src/collector/probe.ts', '../modules/monitoring/context.ts'],
  ['server/src/collector/drivers/probe.ts', '../../modules/monitoring/index.ts'],
  ['server/src/series/probe.ts', '../modules/energy/fill.ts'],
  ['server/src/push/probe.ts', '../modules/users/index.ts'],
  ['server/src/notify/probe.ts', '../modules/notify/index.ts'],
  ['server/src/bus/probe.ts', '../modules/access/index.ts'],
  ['server/src/schedule/probe.ts', '../modules/inspection/index.ts'],
  ['server/src/http/probe.ts', '../modules/auth/index.ts'],
  ['server/src/db/migrations/probe.ts', '../../modules/global-config/index.ts'],
  ['server/src/series/probe.ts', '../../src/modules/energy/index.ts'],
];
const allowed: Array<[string, string]> = [
  ['web/src/features/alarms/pages/probe.tsx', '../components/crud-page.tsx'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../api/client.ts'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../session/permissions.ts'],
  ['server/src/modules/alarms/probe.ts', '../users/index.ts'],
  ['server/src/modules/alarms/probe.ts', '../../http/route.ts'],
  ['e2e/specs/probe.ts', '../fixtures/test.ts'],
  ['web/src/features/alarms/pages/probe.tsx', '../../../components/site-select.tsx'],
  ['web/src/features/alarms/probe.ts', './api.ts'],
  ['web/src/app/probe.tsx', '../features/users/routes.tsx'],
  ['web/src/app/shell/probe.tsx', '../../components/preference-pickers.tsx'],
  ['web/src/components/probe.tsx', '../session/preferences.ts'],
  ['web/src/components/probe.tsx', './themes.ts'],
  ['web/src/session/probe.ts', '../api/client.ts'],
  ['web/src/editor/model/probe.ts', './geometry.ts'],
  ['server/src/alarms/probe.ts', '../notify/notifier.ts'],
  ['server/src/collector/probe.ts', '../series/writer.ts'],
  ['server/src/series/probe.ts', '../db/kysely.ts'],
  // The composition root (app.ts, area.ts, areas.ts) hands areas to the engines: it imports modules.
  ['server/src/probe.ts', './modules/users/index.ts'],
];

describe('import boundaries', () => {
  it('every forbidden import is reported', () => {
    const hits = reported(forbidden);
    expect(forbidden.filter((_, i) => !hits[i])).toEqual([]);
  });
  it('allowed imports pass', () => {
    const hits = reported(allowed);
    expect(allowed.filter((_, i) => hits[i])).toEqual([]);
  });
});
