import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { generateOpenApi, openApiFile } from '../src/openapi-emit.ts';

let generated = '';
beforeAll(async () => {
  generated = await generateOpenApi();
});

it('the committed openapi/openapi.json matches the routes (run `npm run openapi -w server` after an API change)', () => {
  expect(readFileSync(openApiFile, 'utf8')).toBe(generated);
});

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
};

/** Paths (a.b[].c) of the properties, at any depth, that carry no description. */
const undescribed = (schema: Schema | undefined, at = ''): string[] => {
  if (!schema) return [];
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = at ? `${at}.${name}` : name;
    if (!property.description?.trim()) missing.push(path);
    missing.push(...undescribed(property, path));
  }
  if (schema.items) missing.push(...undescribed(schema.items, `${at}[]`));
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    missing.push(...undescribed(variant, at));
  }
  return [...new Set(missing)];
};

it('fields carry their descriptions from the contract: every field of every monitoring and API-token route', () => {
  const doc = JSON.parse(generated) as {
    paths: Record<
      string,
      Record<
        string,
        {
          tags?: string[];
          parameters?: { name: string; description?: string }[];
          requestBody?: { content: Record<string, { schema: Schema }> };
          responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
        }
      >
    >;
  };
  const op = (method: string, path: string) => {
    const found = doc.paths[`/api/v1/${path}`]?.[method];
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  };
  const body = (method: string, path: string) => op(method, path).requestBody?.content['application/json']?.schema;
  const data = (method: string, path: string) =>
    op(method, path).responses['200']?.content?.['application/json']?.schema.properties?.data;

  const inputs = {
    'POST setting/devices': body('post', 'setting/devices'),
    'PUT setting/devices/{id}': body('put', 'setting/devices/{id}'),
    'POST setting/items': body('post', 'setting/items'),
    'PUT setting/items/{id}': body('put', 'setting/items/{id}'),
    'POST user/api_tokens': body('post', 'user/api_tokens'),
  };
  for (const [route, schema] of Object.entries(inputs)) {
    expect(Object.keys(schema?.properties ?? {}).length, route).toBeGreaterThan(2);
    expect(undescribed(schema), route).toEqual([]);
  }
  // The device's name and the item's source say what they are, in the contract's own words.
  expect(inputs['POST setting/devices']?.properties?.protocol_id?.description).toMatch(/Modbus unit/);
  expect(JSON.stringify(inputs['POST setting/items']?.properties?.source)).toContain(
    'Dotted path into the JSON payload',
  );

  // Every route of the monitoring and token contracts: body, answer and parameters, at any depth.
  const bare: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(ops)) {
      const tags = operation.tags ?? [];
      if (!tags.includes('monitoring') && !tags.includes('tokens')) continue;
      const answer = operation.responses['200']?.content?.['application/json']?.schema.properties?.data;
      const missing = [
        ...undescribed(operation.requestBody?.content['application/json']?.schema).map((f) => `body.${f}`),
        ...undescribed(answer).map((f) => `data.${f}`),
        ...(operation.parameters ?? []).filter((p) => !p.description?.trim()).map((p) => `param ${p.name}`),
      ];
      for (const field of missing) bare.push(`${method.toUpperCase()} ${path} ${field}`);
    }
  }
  expect(bare).toEqual([]);
  expect(Object.keys(data('get', 'setting/devices')?.properties ?? {})).toEqual(['total', 'data']);
});
