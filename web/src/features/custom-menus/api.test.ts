import { describe, expect, it } from 'vitest';
import { frameSandbox } from './api.ts';

describe('the external link frame’s sandbox (docs/custom-menus.md)', () => {
  const here = 'http://console.local:8080/external_link?pathUrl=x';
  it('gives another origin its own origin, never top navigation', () => {
    const sandbox = frameSandbox('http://127.0.0.1:9000/ledger.html', here);
    expect(sandbox).toContain('allow-same-origin');
    expect(sandbox).toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-top-navigation');
  });
  it('runs a page of the console’s own origin in an opaque origin (no access to the token)', () => {
    expect(frameSandbox('/static/wiki/index.html', here)).not.toContain('allow-same-origin');
    expect(frameSandbox('http://console.local:8080/static/x.html', here)).not.toContain('allow-same-origin');
  });
});
