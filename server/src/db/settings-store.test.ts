import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from './kysely.ts';
import { createSettingsStore } from './settings-store.ts';

/** A table of one row whose reads wait until the test lets them answer. */
const slowTable = () => {
  let row: { v: string } | undefined;
  const waiting: (() => void)[] = [];
  const chain = {
    select: () => chain,
    where: () => chain,
    executeTakeFirst: () => {
      const answer = row;
      return new Promise<typeof row>((resolve) => waiting.push(() => resolve(answer)));
    },
  };
  const insert = {
    values: (values: { v: string }) => ({
      onConflict: () => ({
        execute: async () => {
          row = { v: values.v };
        },
      }),
    }),
  };
  const db = { kysely: { selectFrom: () => chain, insertInto: () => insert } } as unknown as Db;
  return {
    db,
    answerReads: () => {
      for (const answer of waiting.splice(0)) answer();
    },
  };
};

describe('the settings store', () => {
  it('keeps a value written while an older read was in flight', async () => {
    const table = slowTable();
    const store = createSettingsStore({
      db: table.db,
      table: 'module_settings',
      schemas: { duty: z.object({ handover_enable: z.boolean() }) },
      defaults: { duty: { handover_enable: false } },
    });
    const older = store.get('duty');
    await store.set('duty', { handover_enable: true });
    table.answerReads();
    // The read saw the row before the write: it answers the cached newer value, and keeps it cached.
    expect(await older).toEqual({ handover_enable: true });
    expect(store.peek('duty')).toEqual({ handover_enable: true });
    expect(await store.get('duty')).toEqual({ handover_enable: true });
  });
});
