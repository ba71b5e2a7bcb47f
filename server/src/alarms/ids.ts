import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { inProcessWriter, type SqlWriter } from '../series/writer.ts';

/** Ids a process reserves at a time at first; more when a block lasts less than `quickMs`. */
const firstBlock = 1_000;
const largestBlock = 1_000_000;
const quickMs = 60_000;

export interface AlarmIds {
  /** Makes sure the counter exists and lies past every stored alarm, then reserves a first block. */
  start(): Promise<void>;
  /** The next id of this process's block, or null while none is reserved (one is on its way). */
  take(): number | null;
  /** After a restore: the block held is dropped and the counter moved past the restored alarms. */
  restart(): Promise<void>;
  /** Waits for a reservation in flight; true when there was one (`settled()` of the engine). */
  settled(): Promise<boolean>;
}

/**
 * Alarm ids from the database, hi/lo (docs/alarms.md "Alarm ids"): a process reserves a block of
 * ids with one atomic `update … returning` of `id_blocks` and hands them out from memory, so a raise
 * stays synchronous and several processes on one database never give the same id. The next block
 * is reserved while half of the current one is left; a block used up within a minute makes the
 * next one twice as large. Ids left in a block at a restart are skipped, never reused.
 */
export const createAlarmIds = (
  db: Db,
  options: {
    clock: () => number;
    onBlock: () => void;
    warn: (obj: object, msg: string) => void;
    /** The series store's writer while it runs (handed in by the composition root); the server's connection otherwise. */
    writer?: (() => SqlWriter) | undefined;
  },
): AlarmIds => {
  const mainWriter = inProcessWriter(db);
  const writer = options.writer ?? (() => mainWriter);
  // Through the writer (on SQLite a thread of its own while the series store runs): the commit's
  // fsync of a reservation held the main thread, the alarms of that moment waited behind it.
  const reserveSql = `update id_blocks set next_id = next_id + ${db.dialect === 'postgres' ? '$1' : '?'} where name = 'alarms' returning next_id`;
  let next = 0;
  let end = 0;
  let spare: { from: number; to: number } | null = null;
  let size = firstBlock;
  let blockSince = 0;
  let reserving: Promise<void> | null = null;

  /** Moves to the spare block; the size grows when the block just used went quickly. */
  const useSpare = () => {
    if (!spare) return;
    const now = options.clock();
    if (end > 0 && now - blockSince < quickMs) size = Math.min(size * 2, largestBlock);
    blockSince = now;
    ({ from: next, to: end } = spare);
    spare = null;
  };

  const reserve = (): Promise<void> => {
    reserving ??= (async () => {
      const want = size;
      const [done] = await writer().transaction([{ sql: reserveSql, params: [want] }]);
      const to = Number(done?.rows[0]?.next_id);
      if (!Number.isSafeInteger(to)) throw new Error('the alarms counter of id_blocks is missing');
      spare = { from: to - want, to };
      if (next >= end) useSpare();
    })()
      .catch((err) => options.warn({ err }, 'could not reserve alarm ids'))
      .finally(() => {
        reserving = null;
        options.onBlock();
      });
    return reserving;
  };

  const ids: AlarmIds = {
    async restart() {
      if (reserving) await reserving;
      next = end = 0;
      spare = null;
      await ids.start();
    },
    async start() {
      await db.kysely
        .insertInto('id_blocks')
        .values({ name: 'alarms', next_id: 1 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      // Rows written another way (an import, a restored backup) are never given out again; the
      // statement only ever raises the counter, so it is safe beside another process's reservation.
      await sql`update id_blocks set next_id = (select coalesce(max(id), 0) + 1 from alarms)
        where name = 'alarms' and next_id <= (select coalesce(max(id), 0) from alarms)`.execute(db.kysely);
      if (next >= end && !spare) await reserve();
    },
    take() {
      if (next >= end) useSpare();
      if (next >= end) {
        void reserve();
        return null;
      }
      const id = next++;
      if (!spare && end - next <= size / 2) void reserve();
      return id;
    },
    async settled() {
      if (!reserving) return false;
      await reserving;
      return true;
    },
  };
  return ids;
};
