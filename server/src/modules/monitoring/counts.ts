import type { Db } from '../../db/kysely.ts';

/** How large the estate is: sites, devices and items (the system information page, docs/system.md). */
export interface EstateCounts {
  counts(): Promise<{ sites: number; devices: number; items: number }>;
}

export const estateCountsOf = (db: Db): EstateCounts => ({
  async counts() {
    const count = async (table: 'device_groups' | 'devices' | 'items') => {
      const row = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    const [sites, devices, items] = await Promise.all([count('device_groups'), count('devices'), count('items')]);
    return { sites, devices, items };
  },
});
