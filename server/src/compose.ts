import type { AnyArea, AreaParts, Families, FamilyName, Kernel, ServiceName, Services } from './area.ts';

/**
 * Orders areas so that each comes after the areas providing what it needs. A need nobody provides,
 * a service provided twice, a name used twice or a cycle is refused here, at start, with the names.
 */
export const orderAreas = (areas: readonly AnyArea[], given: readonly string[]): AnyArea[] => {
  const names = new Set<string>();
  const provider = new Map<string, AnyArea>();
  for (const name of given) provider.set(name, { name: '(composition root)', create: () => ({}) });
  for (const area of areas) {
    if (names.has(area.name)) throw new Error(`two areas are named ${area.name}`);
    names.add(area.name);
    for (const service of area.provides ?? []) {
      const other = provider.get(service);
      if (other) throw new Error(`${service} is provided by both ${other.name} and ${area.name}`);
      provider.set(service, area);
    }
  }
  const ordered: AnyArea[] = [];
  const placed = new Set<AnyArea>();
  const visiting: AnyArea[] = [];
  const visit = (area: AnyArea) => {
    if (placed.has(area)) return;
    if (visiting.includes(area)) {
      const cycle = [...visiting.slice(visiting.indexOf(area)), area].map((a) => a.name);
      throw new Error(`areas need each other in a cycle: ${cycle.join(' → ')}`);
    }
    visiting.push(area);
    for (const need of area.needs ?? []) {
      const from = provider.get(need);
      if (!from) throw new Error(`${area.name} needs ${need}, which no area provides`);
      if (areas.includes(from)) visit(from);
    }
    visiting.pop();
    placed.add(area);
    ordered.push(area);
  };
  for (const area of areas) visit(area);
  return ordered;
};

export interface MadeArea {
  area: AnyArea;
  parts: AreaParts<ServiceName>;
}

/**
 * Makes every area in dependency order: each factory gets the kernel and exactly the services it
 * declared it needs; what it provides must be what it declared. Families are gathered as the areas
 * are made and readable once all are.
 */
export const makeAreas = async (
  areas: readonly AnyArea[],
  kernel: Kernel,
  given: Partial<Services>,
): Promise<{ services: Services; made: MadeArea[] }> => {
  const services: Partial<Services> = { ...given };
  const families = new Map<FamilyName, unknown[]>();
  let complete = false;
  const all = <F extends FamilyName>(family: F): Families[F][] => {
    if (!complete) throw new Error(`the family ${String(family)} is read before every area is made`);
    return (families.get(family) ?? []) as Families[F][];
  };
  const made: MadeArea[] = [];
  for (const area of orderAreas(areas, Object.keys(given))) {
    const needs = Object.fromEntries((area.needs ?? []).map((n: ServiceName) => [n, services[n]]));
    const parts = (await area.create({ kernel, needs, all })) as AreaParts<ServiceName>;
    const declared = [...(area.provides ?? [])].sort();
    const provided = Object.keys(parts.provides ?? {}).sort();
    if (declared.join() !== provided.join())
      throw new Error(`${area.name} declares it provides [${declared}] but made [${provided}]`);
    Object.assign(services, parts.provides);
    for (const [family, members] of Object.entries(parts.contributes ?? {}))
      families.set(family as FamilyName, [...(families.get(family as FamilyName) ?? []), ...(members as unknown[])]);
    made.push({ area, parts });
  }
  complete = true;
  return { services: services as Services, made };
};
