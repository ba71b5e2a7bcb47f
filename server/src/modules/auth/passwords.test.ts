import { expect, it } from 'vitest';
import { isCommonPassword } from './passwords.ts';

// The list is read at the first check (issue 18, memory): the check still knows it, in any case.
it('knows the common passwords of the zxcvbn-ts list, in any case, and not others', () => {
  expect(isCommonPassword('password')).toBe(true);
  expect(isCommonPassword('QWERTY')).toBe(true);
  expect(isCommonPassword('dragon')).toBe(true);
  expect(isCommonPassword('Vq7#mZ2!rT9x')).toBe(false);
});
