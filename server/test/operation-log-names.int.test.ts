import { operationLogModules } from '@sitewatch/contract/operation-log';
import { describe, expect, it } from 'vitest';
import { trailModule } from '../src/modules/logs/index.ts';
import { useTestApp } from './helpers/build-app.ts';

/**
 * Every module code the operation log can hold has a name in the four languages: the codes modules
 * write themselves are typed by the registry (`@sitewatch/contract/operation-log`, whose test
 * checks the names), and the codes the shared trail derives from a route's path are checked here
 * against every route the app registers, so a new write route without a name fails.
 */
describe('operation log module names', () => {
  const t = useTestApp('sqlite');

  it('every write route the shared trail logs has a named module code', () => {
    const codes = new Set<string>();
    for (const route of t.sitewatch.routes) {
      for (const method of [route.method].flat()) {
        const code = trailModule(method, route.url);
        if (code !== null) codes.add(code);
      }
    }
    expect(codes.size).toBeGreaterThan(50);
    expect([...codes].filter((code) => !Object.hasOwn(operationLogModules, code))).toEqual([]);
  });
});
