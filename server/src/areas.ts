import { existsSync, readdirSync } from 'node:fs';
import type { AnyArea } from './area.ts';

/** Listed by the production build (server/build.mjs), which bundles every area.ts it finds. */
declare const __SITEWATCH_AREAS__: readonly string[] | undefined;

/**
 * The product's areas: every `server/src/modules/<name>/area.ts`, found in its folder. A new area is
 * a folder with an `area.ts` exporting `area` (a `defineArea` declaration); nothing else lists it.
 */
export const areaFolders = (): readonly string[] =>
  typeof __SITEWATCH_AREAS__ !== 'undefined'
    ? __SITEWATCH_AREAS__
    : readdirSync(new URL('./modules/', import.meta.url))
        .filter((name) => existsSync(new URL(`./modules/${name}/area.ts`, import.meta.url)))
        .sort();

export const loadAreas = async (): Promise<AnyArea[]> =>
  Promise.all(
    areaFolders().map(async (name) => {
      const module = (await import(`./modules/${name}/area.ts`)) as { area?: AnyArea };
      if (!module.area) throw new Error(`server/src/modules/${name}/area.ts exports no area`);
      return module.area;
    }),
  );
