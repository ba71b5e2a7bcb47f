import { describe, expect, it } from 'vitest';
import { filterForList, filterForName, filterProblem } from './directory.ts';

const settings = { user_filter: '(&(objectClass=person)(uid={{username}}))', attr_user_name: 'uid', attr_alias: 'cn' };

describe('LDAP filters', () => {
  it('puts the escaped login name where the placeholder is', () => {
    expect(filterForName(settings, 'alice')).toBe('(&(objectClass=person)(uid=alice))');
    // RFC 4515: a name cannot add terms or wildcards to the filter.
    expect(filterForName(settings, '*)(uid=*')).toBe('(&(objectClass=person)(uid=\\2a\\29\\28uid=\\2a))');
    expect(filterForName(settings, 'a\\b')).toBe('(&(objectClass=person)(uid=a\\5cb))');
    expect(filterForName({ user_filter: '(|(uid={{username}})(mail={{username}}))' }, 'x')).toBe('(|(uid=x)(mail=x))');
  });

  it('lists everyone the filter can match, optionally narrowed by a name or alias substring', () => {
    expect(filterForList(settings)).toBe('(&(objectClass=person)(uid=*))');
    expect(filterForList(settings, 'jo(')).toBe('(&(&(objectClass=person)(uid=*))(|(uid=*jo\\28*)(cn=*jo\\28*)))');
  });

  it('finds filters that do not parse, including a missing last parenthesis the parser forgives', () => {
    expect(filterProblem('(uid=*)')).toBeNull();
    expect(filterProblem('(&(uid=*)(cn=a))')).toBeNull();
    expect(filterProblem('(&(uid=*)')).toBe('unbalanced parentheses');
    expect(filterProblem('(uid=*))(')).toBe('unbalanced parentheses');
    expect(filterProblem('((uid=*)')).not.toBeNull();
  });
});
