import { describe, expect, it } from 'vitest';
import { changelog, parseChangelog } from './changelog.ts';

describe('the changelog', () => {
  it('reads versions, dates and their lines; text before the first version is not a change', () => {
    const text =
      '# Changelog\n\nIntro.\n- not a change\n\n## 1.2.0 — 2026-12-01\n\n- One\n- Two\n\n## 1.1.0\n* Three\n';
    expect(parseChangelog(text)).toEqual([
      { version: '1.2.0', date: '2026-12-01', changes: ['One', 'Two'] },
      { version: '1.1.0', date: '', changes: ['Three'] },
    ]);
  });
  it('finds the repository CHANGELOG.md', () => {
    expect(changelog()[0]?.changes.length).toBeGreaterThan(0);
  });
});
