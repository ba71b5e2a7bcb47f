import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { useTestApp } from '../helpers/build-app.ts';
import { describeEachDatabase } from '../helpers/databases.ts';
import { fuzzAreas } from './areas.ts';
import { operations } from './harness.ts';

describeEachDatabase('fuzz coverage', (dialect) => {
  const t = useTestApp(dialect);

  it('the committed document holds every route the app registers', async () => {
    const live = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, object>;
    };
    expect(Object.keys(live.paths).sort()).toEqual([...new Set(operations.map((o) => o.path))].sort());
  });

  it('every route belongs to exactly one fuzz area, and every area has its test file', () => {
    const areasOf = (tag: string) => Object.entries(fuzzAreas).filter(([, a]) => (a.tags as string[]).includes(tag));
    const unowned = operations
      .filter((o) => areasOf(o.tag).length !== 1)
      .map((o) => `${o.method} ${o.path} (${o.tag})`);
    expect(unowned).toEqual([]);
    for (const name of Object.keys(fuzzAreas))
      expect(existsSync(path.join(import.meta.dirname, `${name}.int.test.ts`)), name).toBe(true);
  });
});
