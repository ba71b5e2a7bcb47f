import { randomBytes } from 'node:crypto';
import type { CategoryLicenceRow, LicenceInfo } from '@sitewatch/contract/licence';
import { sql } from 'kysely';
import type { QuotaDeclaration, TableName } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { type CodePayload, publicKeyOf, readCode } from './code.ts';

const DAY = 86_400;
/** How far the clock must move before the latest time seen is written again. */
const keepEvery = 60;
const stateKey = 'licence';

/** What the database keeps (module_settings, key `licence`): none of it is a file to delete. */
interface Stored {
  sn: string;
  /** First start, epoch seconds: the trial counts from it. */
  first_start: number;
  /** The latest time the server has seen, epoch seconds: a clock moved back reads as this. */
  latest_seen: number;
  /** The activation code accepted last, or ''. */
  code: string;
}

/** A declared quota over a table (from the areas' `tables.<t>.quota`). */
export interface CountedTable extends QuotaDeclaration {
  table: TableName;
}

export interface LicenceDeps {
  db: Db;
  clock: () => number;
  publicKeyPem: string;
  trialDays: number;
  counted: readonly CountedTable[];
}

/** A serial number: SW-XXXX-XXXX-XXXX-XXXX (base32 without look-alike letters). */
const makeSerial = () => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `SW-${chars.match(/.{4}/g)!.join('-')}`;
};

export const createLicenceService = (deps: LicenceDeps) => {
  const { db, clock, trialDays, counted } = deps;
  const key = publicKeyOf(deps.publicKeyPem);
  let stored: Stored | null = null;

  const write = async (value: Stored) => {
    const v = JSON.stringify(value);
    const updated_at = Math.floor(clock() / 1000);
    await db.kysely
      .insertInto('module_settings')
      .values({ k: stateKey, v, updated_at })
      .onConflict((oc) => oc.column('k').doUpdateSet({ v, updated_at }))
      .execute();
    stored = value;
    saved = true;
    savedLatest = value.latest_seen;
  };

  /** Whether `stored` has a row (a state made in memory is written by `keep`), and its latest time seen. */
  let saved = false;
  let savedLatest = 0;
  const read = async () => {
    const row = await db.kysely.selectFrom('module_settings').select('v').where('k', '=', stateKey).executeTakeFirst();
    return row ? (JSON.parse(row.v) as Stored) : null;
  };
  /**
   * The stored state, or one made in memory until `keep` writes it (at start, then by its timer):
   * a read never writes, so a request that is refused changes no row.
   */
  const load = async (): Promise<Stored> => {
    if (stored) return stored;
    const found = await read();
    const at = Math.floor(clock() / 1000);
    stored = found ?? { sn: makeSerial(), first_start: at, latest_seen: at, code: '' };
    saved = found !== null;
    savedLatest = found?.latest_seen ?? 0;
    return stored;
  };

  /**
   * Now, never earlier than the latest time seen: moving the clock back gains no trial day. Kept in
   * memory at every read, written by `keep` (a restart loses at most its interval).
   */
  const now = async (): Promise<{ state: Stored; now: number }> => {
    const state = await load();
    state.latest_seen = Math.max(Math.floor(clock() / 1000), state.latest_seen);
    return { state, now: state.latest_seen };
  };

  /**
   * Writes the state made at the first start (a second server starting at once keeps the first's),
   * and the latest time seen once the clock has moved on.
   */
  const keep = async () => {
    const { state, now: at } = await now();
    if (!saved) {
      await db.kysely
        .insertInto('module_settings')
        .values({ k: stateKey, v: JSON.stringify(state), updated_at: at })
        .onConflict((oc) => oc.column('k').doNothing())
        .execute();
      const kept = (await read()) ?? state;
      stored = { ...kept, latest_seen: Math.max(kept.latest_seen, at) };
      saved = true;
      savedLatest = kept.latest_seen;
    }
    if (stored!.latest_seen > savedLatest + keepEvery) await write(stored!);
  };

  const activation = (state: Stored): CodePayload | null => {
    if (!state.code) return null;
    const read = readCode(state.code, key);
    return read.ok && read.payload.sn === state.sn ? read.payload : null;
  };

  const countOf = async (table: TableName) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely)).rows[0]?.n ?? 0,
    );
  const counts = async (what: 'devices' | 'items') => {
    let n = 0;
    for (const c of counted.filter((t) => t.counts === what)) n += await countOf(c.table);
    return n;
  };
  const perCategory = async (): Promise<Map<string, number>> => {
    const out = new Map<string, number>();
    for (const c of counted.filter((t) => t.counts === 'devices' && t.category)) {
      const rows = await sql<{
        c: string;
        n: number;
      }>`select ${sql.ref(c.category!)} as c, count(*) as n from ${sql.table(c.table)} group by ${sql.ref(c.category!)}`.execute(
        db.kysely,
      );
      for (const r of rows.rows) out.set(String(r.c), (out.get(String(r.c)) ?? 0) + Number(r.n));
    }
    return out;
  };

  const info = async (): Promise<LicenceInfo> => {
    const { state, now: at } = await now();
    const code = activation(state);
    const trialEnd = state.first_start + trialDays * DAY;
    const base = {
      sn: state.sn,
      start_time: state.first_start,
      trial_days: trialDays,
      devices: await counts('devices'),
      items: await counts('items'),
    };
    if (code) {
      const expired = code.expires !== 0 && at >= code.expires;
      return {
        ...base,
        status: expired ? 'expired' : 'activated',
        edition: code.edition,
        remain_days: code.expires === 0 ? -1 : Math.max(0, Math.ceil((code.expires - at) / DAY)),
        expire_timestamp: code.expires,
        device_quantity: code.devices,
        item_quantity: code.items,
        category_limit: code.categories,
        blocks_configuration: expired,
      };
    }
    const over = at >= trialEnd;
    return {
      ...base,
      status: over ? 'expired' : 'trial',
      edition: '',
      remain_days: Math.max(0, Math.ceil((trialEnd - at) / DAY)),
      expire_timestamp: trialEnd,
      device_quantity: 0,
      item_quantity: 0,
      category_limit: {},
      blocks_configuration: over,
    };
  };

  return {
    info,
    /** Whether configuration changes are refused (an expired trial or code), without counting rows. */
    async blocksConfiguration(): Promise<boolean> {
      const { state, now: at } = await now();
      const code = activation(state);
      if (code) return code.expires !== 0 && at >= code.expires;
      return at >= state.first_start + trialDays * DAY;
    },
    /** Writes the state made at the first start and keeps the latest time seen (start, then a timer). */
    touch: keep,
    /** After a restore (the area's `reload`): the restored row is read again. */
    reload: () => {
      stored = null;
    },

    /** Accepts a code signed by the vendor for this serial number that has not expired. */
    async activate(code: string): Promise<LicenceInfo> {
      const { state, now: at } = await now();
      const read = readCode(code, key);
      if (!read.ok) throw badRequest(`licence.${read.problem}`);
      if (read.payload.sn !== state.sn) throw badRequest('licence.codeOtherSerial', { sn: state.sn });
      if (read.payload.expires !== 0 && at >= read.payload.expires) throw badRequest('licence.codeExpired');
      await write({ ...state, code: code.trim() });
      return info();
    },

    async categories(names: { code: string; name: string; name_key: string }[]): Promise<CategoryLicenceRow[]> {
      const { state } = await now();
      const code = activation(state);
      const byCategory = await perCategory();
      return names.map((c) => ({
        ...c,
        limit: code?.categories[c.code] ?? -1,
        count: byCategory.get(c.code) ?? 0,
      }));
    },

    /** Whether quotas apply now (an activated licence; the trial has none): counting is skipped otherwise. */
    async hasQuotas(): Promise<boolean> {
      return activation((await now()).state) !== null;
    },

    /**
     * Refuses adding `adding` rows of a quota (and of a category) when it would pass the activated
     * quota: nothing is written, the message names the quota. The trial has no quotas.
     */
    async checkAdd(what: 'devices' | 'items', adding: number, category?: string): Promise<void> {
      const { state } = await now();
      const code = activation(state);
      if (!code) return;
      const quota = what === 'devices' ? code.devices : code.items;
      if ((await counts(what)) + adding > quota) throw new AppError('conflict', `licence.quota.${what}`, { quota });
      if (what === 'devices' && category !== undefined && code.categories[category] !== undefined) {
        const limit = code.categories[category];
        if (((await perCategory()).get(category) ?? 0) + adding > limit)
          throw new AppError('conflict', 'licence.quota.category', { quota: limit, category });
      }
    },
  };
};

export type LicenceService = ReturnType<typeof createLicenceService>;
