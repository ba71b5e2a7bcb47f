// Benchmark: the /data_list read (GET data_list) over 100 000 items in 10 sites of 100 devices, on
// SQLite (default) or PostgreSQL (BENCH_PG_URL): filters, sorts and deep pages, each the median
// and worst of BENCH_RUNS reads of one page of 50 with its total; then one xlsx export of every row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataListExportQuery, dataListQuery } from '../packages/contract/src/reports.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createReportsRepository } from '../server/src/modules/reports/repository.ts';
import { createReportsService } from '../server/src/modules/reports/service.ts';
import { seedEstate } from './estate.ts';
import { createPgDatabase } from './pg-db.ts';

const runs = Number(process.env.BENCH_RUNS ?? 15);
const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-list-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);

const sites: number[] = [];
const seedStart = performance.now();
for (let s = 0; s < 10; s++) {
  const { site } = await seedEstate(db, { items: items / 10, perDevice: 100, siteName: `site-${s}` });
  sites.push(site);
}
// Values, states and update times as a running estate has them: 3 % abnormal, 1 % unknown.
await db.kysely
  .updateTable('items')
  .set((eb) => ({
    value: eb.parens(eb('id', '%', 997), '/', 10),
    state: eb
      .case()
      .when(eb('id', '%', 33), '=', 0)
      .then(2)
      .when(eb('id', '%', 101), '=', 0)
      .then(4)
      .else(1)
      .end(),
    last_check: eb(eb.val(1_700_000_000), '+', eb('id', '%', 600)),
  }))
  .execute();
// Open alarms on 500 items.
for (let i = 0; i < 500; i += 100) {
  await db.kysely
    .insertInto('alarms')
    .values(
      Array.from({ length: 100 }, (_, j) => {
        const n = i + j + 1;
        return {
          id: n,
          item_id: n * 33,
          device_id: 0,
          device_group_id: sites[0]!,
          item_name: '',
          device_name: '',
          device_group_name: '',
          kind: 'item',
          status: 2,
          level: 1 + (n % 5),
          color: '',
          info: '',
          value: 0,
          start_time: 1_700_000_000,
          end_time: null,
          last_check: 1_700_000_000,
          handling: 0,
          remarks: '',
          confirmed_by: '',
          notify_count: 0,
          escalated: 0,
        };
      }),
    )
    .execute();
}
const seedS = (performance.now() - seedStart) / 1000;

const service = createReportsService({ repo: createReportsRepository(db) });
const cases: Array<[string, Record<string, unknown>, number[] | null]> = [
  ['default order, page 1', {}, null],
  ['default order, page 1000 (rows 49 951-50 000)', { page: 1000 }, null],
  ['sort by value desc', { sort: 'value', order: 'desc' }, null],
  ['sort by last update desc, page 200', { sort: 'last_check', order: 'desc', page: 200 }, null],
  ['sort by item name', { sort: 'item' }, null],
  ['state abnormal', { state: 'abnormal' }, null],
  ['state alarm', { state: 'alarm' }, null],
  ['name search "item-7"', { name: 'item-7' }, null],
  ['one site', { device_group_id: sites[3] }, null],
  ['one device', { device_id: 250 }, null],
  ['user granted 2 sites, abnormal, by value', { state: 'abnormal', sort: 'value' }, [sites[1]!, sites[2]!]],
];
const results: Array<Record<string, unknown>> = [];
for (const [name, query, allowed] of cases) {
  const q = dataListQuery.parse({ limit: 50, ...query });
  let answer = await service.list(q, allowed, 'zh_cn');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    answer = await service.list(q, allowed, 'zh_cn');
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  results.push({
    case: name,
    total: answer.total,
    rows: answer.data.length,
    median_ms: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
    worst_ms: Math.round(times[times.length - 1]! * 10) / 10,
  });
}
const exportStart = performance.now();
const book = await service.exportWorkbook(dataListExportQuery.parse({}), null, 'zh_cn');
const exportMs = performance.now() - exportStart;

console.log(
  JSON.stringify(
    {
      database: db.dialect,
      items,
      seed_s: Math.round(seedS * 10) / 10,
      runs,
      reads: results,
      export_all: { rows: items, ms: Math.round(exportMs), bytes: book.length },
    },
    null,
    2,
  ),
);
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
