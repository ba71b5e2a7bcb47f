import { describe, expect, it } from 'vitest';
import { languages, sharedText } from './i18n.ts';
import {
  encodeOperationLogDetail,
  operationLogActions,
  operationLogDetailCodes,
  operationLogModules,
  operationLogReader,
} from './operation-log.ts';

const keys = [
  ...Object.values(operationLogModules).map((k) => `logs.modules.${k}`),
  ...Object.values(operationLogActions).map((k) => `logs.actions.${k}`),
  ...operationLogDetailCodes.map((k) => `logs.details.${k}`),
];

describe('the operation log codes', () => {
  it.each(languages)('every module, action and detail code has a name in %s', (language) => {
    expect(keys.filter((key) => sharedText(language, key) === key)).toEqual([]);
  });

  it('reads a row in the reader’s language: names for codes, words for coded details, data as it is', () => {
    const zh = operationLogReader(
      (key, values) => sharedText('zh_cn', key, values),
      (s) => `t${s}`,
    );
    const en = operationLogReader(
      (key, values) => sharedText('en_us', key, values),
      (s) => `t${s}`,
    );
    expect(zh.module('on_duty_table/rotation')).toBe('轮班排班');
    expect(en.module('energy')).toBe('Energy');
    expect(zh.action('auto_login')).toBe('自动登录');
    expect(en.module('no/such/code')).toBe('no/such/code');
    expect(zh.detail(encodeOperationLogDetail({ code: 'rows', params: { count: 3 } }))).toBe('3 条');
    expect(en.detail(encodeOperationLogDetail({ code: 'countingSince', params: { time: 5 } }))).toBe(
      'Counting since t5',
    );
    const refused = encodeOperationLogDetail({
      code: 'writeRefused',
      params: { value: '1', error: 'errors.unsupportedMediaType', errorParams: '{"type":"x"}' },
    });
    expect(en.detail(refused)).toBe('1: Unsupported content type: x');
    expect(zh.detail('42.5')).toBe('42.5');
    expect(zh.detail('a reason someone typed')).toBe('a reason someone typed');
    // Rows written before details were coded read in the reader's language too.
    expect(zh.detail('password reset')).toBe('已重置密码');
    expect(zh.detail('12 rows')).toBe('12 条');
    expect(zh.detail('ldap: wrong user name or password')).toBe('LDAP：用户名或密码错误');
    expect(en.detail('1: wrong password')).toBe('1: wrong operation password');
  });
});
