import { rawTokens } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';

// The raw-key check itself (no product needed): what it flags and what it leaves alone.
test('the raw-key check flags keys, missing keys and snake_case codes, and leaves names and addresses', () => {
  expect(
    rawTokens([
      '模块 on_duty_table/rotation',
      'opLog.module',
      'monitoringUi.items.noSuchKey',
      'key returned an object instead of string.',
    ]),
  ).toEqual([
    'on_duty_table  (in “模块 on_duty_table/rotation”)',
    'opLog.module',
    'monitoringUi.items.noSuchKey',
    'key returned an object instead of string.',
  ]);
  expect(
    rawTokens(['ldap.example.com', 'duty@example.com', '正常', 'Modbus TCP', 'e.g. 10.0.0.1', 'A相输入电压']),
  ).toEqual([]);
});
