import { channelInput, contactInput } from '@sitewatch/contract/notify';
import { roleInput, userCreate } from '@sitewatch/contract/users';
import type { FormInstance, FormRule } from 'antd';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../i18n/index.ts';
import { contractRule } from './form-rules.ts';

beforeAll(() => initI18n('zh_cn'));

/** Runs a rule as antd does: the rule is given the form, its validator the field name (dotted) and value. */
const check = async (rule: FormRule, values: Record<string, unknown>, field: string) => {
  const form = { getFieldsValue: () => values } as unknown as FormInstance;
  const entity = typeof rule === 'function' ? rule(form) : rule;
  const value = field.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], values);
  try {
    await entity.validator?.({ field } as never, value, () => {});
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('contractRule', () => {
  it("answers with the schema's own message, the one the server answers with", async () => {
    const rule = contractRule(contactInput, { required: true });
    expect(await check(rule, { name: '  ' }, 'name')).toBe(i18n.t('alarms.validation.name'));
    // An empty field reads as an empty text, not as a type error.
    expect(await check(rule, {}, 'name')).toBe(i18n.t('alarms.validation.name'));
    expect(await check(rule, { name: '值班员' }, 'name')).toBeNull();
  });

  it('checks only its own field, and nested fields by their dotted path', async () => {
    expect(await check(contractRule(contactInput), { email: 'ok@example.com' }, 'email')).toBeNull();
    const url = contractRule(channelInput);
    expect(await check(url, { name: 'x', kind: 'webhook', config: { url: 'ftp://x' } }, 'config.url')).toBe(
      i18n.t('alarms.validation.url'),
    );
    expect(
      await check(url, { name: 'x', kind: 'webhook', config: { url: 'https://x.example' } }, 'config.url'),
    ).toBeNull();
  });

  it("uses the page's text where the schema's message is not a locale key", async () => {
    const rule = contractRule(userCreate, { message: '邮箱格式不正确' });
    expect(await check(rule, { email: 'bad-address' }, 'email')).toBe('邮箱格式不正确');
    expect(await check(rule, { email: '' }, 'email')).toBeNull();
  });

  it("sees the request built from the form: a role's rule on another field name", async () => {
    const toBody = (v: Record<string, unknown>) => ({
      name: 'r',
      site_ids: [1],
      menu_ids: [1],
      function_ids: ((v.grants ?? []) as string[]).filter((k) => k.startsWith('f')).map((k) => Number(k.slice(1))),
    });
    const rule = contractRule(roleInput, { message: 'need a function', toBody, path: 'function_ids' });
    // The schema's message is a locale key: its text, as the server answers it.
    expect(await check(rule, { grants: ['m3'] }, 'grants')).toBe('请至少选择一个功能');
    expect(await check(rule, { grants: ['m3', 'f7'] }, 'grants')).toBeNull();
  });
});
