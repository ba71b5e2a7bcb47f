import fc from 'fast-check';
import { expect, it } from 'vitest';
import { operations } from './fuzz/harness.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * Issue 28, finding 8: the OpenAPI document said `function_ids` of `POST setting/roles` was
 * optional (default []) and the server answered 400 "required". Every operation with a body is
 * sent its minimal body — only the fields the document calls required, made from their schemas —
 * and no answer may refuse a field the document calls optional. A field that a rule makes
 * required only in some cases must say so in its description ("required when …", "required for
 * …"), so the document still tells a client what to send.
 */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  description?: string;
}

const formats: Record<string, string> = {
  email: 'ops@example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  cidrv4: '192.0.2.0/24',
  cidrv6: '2001:db8::/32',
};

/** A string the schema takes: its format's example, or one drawn from its pattern (fixed seed). */
const stringFor = (s: Schema): string => {
  if (s.format && formats[s.format]) return formats[s.format]!;
  const min = Math.max(1, s.minLength ?? 1);
  const max = s.maxLength ?? 64;
  if (s.pattern) {
    try {
      const fits = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
      return fc.sample(fits, { numRuns: 1, seed: 28 })[0]!;
    } catch {
      // A pattern fast-check cannot draw from: a plain text, which the server may refuse (a required field).
    }
  }
  return 'x'.repeat(min);
};

/** The minimal value of a schema: for an object, only its required fields. */
const minimal = (s: Schema): unknown => {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) return minimal(options.find((o) => o.type !== 'null') ?? options[0]!);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, minimal(s.properties?.[k] ?? {})]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => minimal(s.items ?? {}));
    case 'string':
      return stringFor(s);
    case 'integer':
    case 'number': {
      const low = (s.minimum ?? 1) + (s.exclusiveMinimum === true ? 1 : 0);
      return Math.min(Math.max(low, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
};

/**
 * The schema of the field at `path` (`a.0.b`) if the document calls it optional without saying
 * when it is required; null when it is required, conditional or not in the document.
 */
const undocumentedOptional = (root: Schema, path: string[]): Schema | null => {
  let s: Schema | undefined = root;
  for (const [i, part] of path.entries()) {
    const options: Schema[] | undefined = s?.anyOf ?? s?.oneOf;
    if (options) s = options.find((o) => o.properties?.[part] || o.items) ?? options[0];
    if (!s) return null;
    if (/^\d+$/.test(part) && s.items) {
      s = s.items;
      continue;
    }
    const field: Schema | undefined = s.properties?.[part];
    if (!field) return null;
    const last = i === path.length - 1;
    if (last && !(s.required ?? []).includes(part))
      return /\brequired (when|for|with|if|unless)\b/i.test(field.description ?? '') ? null : field;
    s = field;
  }
  return null;
};

const withBody = operations.filter(
  (o) => (o.op as { requestBody?: unknown }).requestBody && o.path.startsWith('/api/v1/'),
);

describeEachDatabase('the OpenAPI document and the server agree on optional fields', (dialect) => {
  const t = useTestApp(dialect);

  it('no operation refuses its minimal body for a field the document calls optional', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    expect(withBody.length).toBeGreaterThan(90);
    const disagreements: string[] = [];
    let accepted = 0;
    for (const { method, path, op } of withBody) {
      const operation = op as {
        parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
        requestBody: { content: Record<string, { schema?: Schema }> };
      };
      const schema = operation.requestBody.content['application/json']?.schema;
      if (!schema) continue;
      const query = new URLSearchParams();
      let url = path;
      for (const p of operation.parameters ?? []) {
        const value = String(minimal(p.schema ?? {}));
        if (p.in === 'query' && p.required) query.set(p.name, value);
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      }
      if (query.size) url += `?${query}`;
      const body = minimal(schema);
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      if (res.statusCode < 300) accepted++;
      if (res.statusCode !== 400) continue;
      const fields = (res.json().data?.fields ?? []) as Array<{ path: string; message: string }>;
      for (const f of fields) {
        // Schema refusals name `body.<field>`; a service's own refusals may name the field alone.
        const path = f.path.startsWith('body.') ? f.path.slice('body.'.length) : f.path;
        if (!schema.properties?.[path.split('.')[0]!]) continue;
        const optional = undocumentedOptional(schema, path.split('.'));
        if (optional) disagreements.push(`${method} ${path} ${f.path}: ${f.message} (sent ${JSON.stringify(body)})`);
      }
    }
    expect(disagreements).toEqual([]);
    // The minimal bodies are real requests: many are taken as they are.
    expect(accepted).toBeGreaterThan(20);
  });

  it('field messages are texts in the caller’s language, never locale keys', async () => {
    const refusal = async (url: string, payload: object, language: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${url}`,
        headers: { authorization: 'Bearer admin-token', 'accept-language': language },
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      const { message, data } = res.json() as {
        message: string;
        data: { fields: Array<{ path: string; message: string }> };
      };
      expect(message).toContain(data.fields[0]!.message);
      return Object.fromEntries(data.fields.map((f) => [f.path, f.message]));
    };
    const item = { device_id: 1, name: 'x', value_type: 1, threshold_min: 5, threshold_max: 1 };
    const mqtt = { kind: 'mqtt', topic: 'a/#/b', scale: 0 };
    expect(
      await refusal('setting/items', { ...item, recovery_point: 0, overrun_point: 0, source: mqtt }, 'zh_cn'),
    ).toEqual({
      'body.source.topic': '主题格式不正确：+ 只能代表一整级，# 只能作为最后一级',
      'body.source.scale': '倍率不能为0',
      'body.threshold_max': '最大值不能小于最小值',
    });
    expect(
      await refusal(
        'setting/items',
        { ...item, recovery_point: 0, overrun_point: 0, source: { kind: 'snmp', oid: '1.3.6' } },
        'en_us',
      ),
    ).toEqual({ 'body.threshold_max': 'The maximum cannot be below the minimum' });
    expect(await refusal('setting/roles', { name: 'r', site_ids: [1], menu_ids: [1] }, 'zh_tw')).toEqual({
      'body.function_ids': '請至少選擇一個功能',
    });
    expect(
      await refusal('setting/roles', { name: 'r', site_ids: [], menu_ids: [1], function_ids: [1] }, 'en_us'),
    ).toEqual({
      'body.site_ids': 'Choose at least one site',
    });
    // zod's own messages, in zod's words for that language.
    expect(await refusal('setting/device_groups', { name: 7, weight: 1 }, 'zh_cn')).toEqual({
      'body.name': '无效输入：期望 string，实际接收 数字',
    });
    expect(await refusal('setting/device_groups', { name: 7, weight: 1 }, 'en_us')).toEqual({
      'body.name': 'Invalid input: expected string, received number',
    });
  });
});
