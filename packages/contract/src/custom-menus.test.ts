import { describe, expect, it } from 'vitest';
import { customMenuInput, isExternalAddress, isSafeLinkAddress } from './custom-menus.ts';

describe('custom menu addresses (docs/custom-menus.md)', () => {
  it('takes http(s) addresses with a host and clean /static/ paths', () => {
    for (const url of [
      'http://127.0.0.1:8080/ledger.html',
      'https://assets.example.com/a?b=1#c',
      'HTTPS://Assets.Example.com/',
      '/static/wiki/index.html',
    ])
      expect(isSafeLinkAddress(url), url).toBe(true);
  });

  it('refuses scripts, other schemes, credentials, console routes and escapes from /static/', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<b>',
      'vbscript:x',
      'file:///etc/passwd',
      'ftp://host/x',
      '//evil.example/',
      'http://',
      'http://user:pw@host/',
      'https://host/a b',
      'https://host/"onload="x',
      'http://host/\u0000',
      '/setting_users',
      '/static/../api/v1/menus',
      '/static/a/./b',
      '/static//evil',
      '/static/%2e%2e/x',
      '/static/a%2fb',
      '/static/a\\b',
      `https://host/${'a'.repeat(300)}`,
    ])
      expect(isSafeLinkAddress(url), url).toBe(false);
  });

  it('the schema trims and allows an empty address (a group)', () => {
    const parsed = customMenuInput.parse({ name: ' x ', parent_id: 0, weight: '12', url: ' https://a.example/ ' });
    expect(parsed).toMatchObject({ name: 'x', url: 'https://a.example/', weight: 12, target: '_self', display: true });
    expect(customMenuInput.safeParse({ name: 'x', parent_id: 0, weight: 1, url: '' }).success).toBe(true);
    expect(customMenuInput.safeParse({ name: 'x', parent_id: 0, weight: '01' }).success).toBe(false);
  });

  it('tells which addresses /external_link shows', () => {
    expect(isExternalAddress('http://a')).toBe(true);
    expect(isExternalAddress('/static/x.html')).toBe(true);
    expect(isExternalAddress('/station')).toBe(false);
  });
});
