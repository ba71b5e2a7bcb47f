import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiFile } from '../../src/openapi-emit.ts';
import { useTestApp } from '../helpers/build-app.ts';
import { describeEachDatabase } from '../helpers/databases.ts';
import { snapshotDigest } from '../helpers/db-snapshot.ts';
import { type FuzzArea, fuzzAreas } from './areas.ts';

/**
 * Guard rail for every route: walks the generated OpenAPI document and sends each operation at
 * least `perRoute` generated bad requests (wrong types, missing and extra fields, huge strings
 * and numbers, deep nesting, bad UTF-8, wrong content types). No answer may be a 500, every error
 * must be the envelope, nothing may throw past the app, and a rejected request changes no row of
 * its area's tables. One test file per area (./areas.ts) so that Vitest's workers share the work.
 */
// 100 seeded draws still hit every family of bad input below many times (six body kinds, signed in
// or not, each field wrong or missing); 200 made the fuzz 40 % of the whole Vitest time.
const perRoute = 100;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
}
interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const huge = fc.oneof(
  fc.constant('x'.repeat(200_000)),
  fc.constant(1e308),
  fc.constant(-1e308),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.constant('9'.repeat(400)),
);
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constant('../../etc/passwd'),
  fc.constant("' or 1=1 --"),
  fc.constant('\u0000'),
  fc.constant('<script>alert(1)</script>'),
  fc.constant('NaN'),
  fc.constant('-1'),
  fc.constant(''),
  huge,
);
const deep = fc.integer({ min: 50, max: 2000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), deep, huge, nasty, fc.constant(null));

/** A value of the wrong type for `schema`. */
const wrongFor = (schema: JsonSchema | undefined): fc.Arbitrary<unknown> => {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), huge, fc.object());
    case 'number':
    case 'integer':
      return fc.oneof(
        fc.string(),
        fc.constant(1.5),
        fc.constant(-1),
        huge,
        fc.boolean(),
        fc.constant(null),
        fc.object(),
      );
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer(), fc.constant(null));
    case 'array':
      return fc.oneof(fc.string(), fc.object(), fc.array(anyJson, { maxLength: 5 }), fc.constant(null));
    case 'object':
      return fc.oneof(fc.string(), fc.array(fc.integer()), deep, fc.constant(null));
    default:
      return anyJson;
  }
};

/** An object built from the schema with one or more fields wrong, missing or extra. */
const mutatedObject = (schema: JsonSchema | undefined): fc.Arbitrary<unknown> => {
  const props = Object.entries(schema?.properties ?? {});
  if (props.length === 0) return fc.oneof(anyJson, fc.dictionary(fc.string(), anyJson, { maxKeys: 5 }));
  const entries = props.map(([key, prop]) =>
    fc.option(wrongFor(prop), { nil: undefined }).map((v) => [key, v] as const),
  );
  return fc
    .tuple(fc.tuple(...entries), fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), anyJson, { maxKeys: 3 }))
    .map(([pairs, extra]) => ({ ...extra, ...Object.fromEntries(pairs.filter(([, v]) => v !== undefined)) }));
};

const asQueryValue = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const requestsFor = (method: string, path: string, op: Operation): fc.Arbitrary<FuzzRequest> => {
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const pathArb = fc.tuple(...pathParams.map(() => nasty.map(asQueryValue)), fc.constant(0)).map((values) => {
    let url = path;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, encodeURIComponent(String(values[i]).slice(0, 300)) || '%20');
    });
    return url;
  });
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) => fc.option(wrongFor(p.schema).map(asQueryValue), { nil: undefined })),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), nasty.map(asQueryValue), { maxKeys: 3 }),
    )
    .map((values) => {
      const extra = values.pop() as Record<string, string>;
      const search = new URLSearchParams(extra);
      queryParams.forEach((p, i) => {
        const v = values[i] as string | undefined;
        if (v !== undefined) search.set(p.name, v.slice(0, 100_000));
      });
      return search.toString();
    });
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; type?: string }> = fc.oneof(
    mutatedObject(bodySchema).map((v) => ({ payload: JSON.stringify(v) ?? 'null', type: 'application/json' })),
    anyJson.map((v) => ({ payload: JSON.stringify(v) ?? 'null', type: 'application/json' })),
    fc.string().map((s) => ({ payload: `{${s}`, type: 'application/json' })),
    fc.constant({
      payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      type: 'application/json',
    }),
    fc
      .constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded')
      .map((type) => ({ payload: 'a=1&b=<x>', type })),
    fc.constant({}),
  );
  return fc.tuple(pathArb, queryArb, bodyArb, fc.boolean()).map(([url, query, body, signedIn]) => {
    const headers: Record<string, string> = {};
    if (signedIn) headers.authorization = 'Bearer admin-token';
    const hasBody = method !== 'GET' && method !== 'HEAD' && body.payload !== undefined;
    if (hasBody && body.type) headers['content-type'] = body.type;
    return { method, url: query ? `${url}?${query}` : url, headers, ...(hasBody ? { payload: body.payload } : {}) };
  });
};

/**
 * The operations, read from the committed OpenAPI document (the openapi test keeps it equal to the
 * live routes), so each route is a test of its own with its own time limit.
 */
const committedDoc = JSON.parse(readFileSync(openApiFile, 'utf8')) as {
  paths: Record<string, Record<string, Operation & { tags?: string[] }>>;
};
export const operations = Object.entries(committedDoc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op, tag: op.tags?.[0] ?? '' })),
);

/** Tables every area may be blamed for: the operation log and the global settings. */
const sharedTables = ['operation_logs', 'global_config'];

/** Fuzzes every operation whose tag belongs to `name`, on each database. */
export const fuzzArea = (name: FuzzArea) => {
  const area = fuzzAreas[name];
  const mine = operations.filter((o) => area.tags.includes(o.tag));
  describeEachDatabase(`fuzz ${name}`, (dialect) => {
    const t = useTestApp(dialect);
    const failures: unknown[] = [];
    const onFailure = (err: unknown) => failures.push(err);
    let sent = 0;
    let tables: string[] = [];
    beforeAll(() => {
      // The tables of the areas that registered these routes, as they declare them.
      const owners = new Set(
        t.sitewatch.routes
          .filter((r) => mine.some((o) => o.method === r.method && o.path === r.url.replace(/:(\w+)/g, '{$1}')))
          .map((r) => r.area),
      );
      const declared = t.sitewatch.areas.filter((a) => owners.has(a.name)).flatMap((a) => Object.keys(a.tables ?? {}));
      tables = [...new Set([...sharedTables, ...declared, ...area.also])];
      process.on('uncaughtException', onFailure);
      process.on('unhandledRejection', onFailure);
    });
    afterAll(() => {
      process.off('uncaughtException', onFailure);
      process.off('unhandledRejection', onFailure);
      console.log(`fuzz ${name} [${dialect}]: ${mine.length} routes, ${sent} requests, none answered ≥ 500`);
    });

    it.each(mine)(
      `$method $path: ${perRoute} bad requests`,
      async ({ method, path, op }) => {
        const samples = fc.sample(requestsFor(method, path, op), { numRuns: perRoute, seed: 20261122 });
        const writes = method !== 'GET' && method !== 'HEAD';
        // Reads change nothing by design. Writes: the area's tables are digested before and after
        // the batch; when every request was rejected the two must be equal. When some request was
        // accepted (rows may change by right), or the digests differ, the batch is replayed one
        // request at a time with a digest around each rejected one, which also names the culprit.
        const digest = () => snapshotDigest(t.database.db, tables);
        const before = writes ? await digest() : '';
        let accepted = false;
        const send = async (request: FuzzRequest) => {
          const res = await t.app.inject(request as InjectOptions);
          sent += 1;
          const where = `${request.method} ${request.url.slice(0, 200)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const body = res.json();
            expect(body.code, where).not.toBe(0);
            expect(typeof body.message, where).toBe('string');
            expect(body, where).toHaveProperty('data');
          } else accepted = true;
          return { where, rejected: res.statusCode >= 400 };
        };
        for (const request of samples) await send(request);
        if (writes) {
          const unchanged = (await digest()) === before;
          if (accepted || !unchanged) {
            for (const request of samples) {
              const was = await digest();
              const { where, rejected } = await send(request);
              if (rejected) expect(await digest(), `${where} changed rows`).toBe(was);
            }
          }
          if (!accepted) expect(unchanged, 'a rejected request changed rows').toBe(true);
        }
        expect(failures).toEqual([]);
      },
      120_000,
    );
  });
};
