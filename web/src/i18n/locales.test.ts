import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { languages, sharedMessages } from '@sitewatch/contract';
import { describe, expect, it } from 'vitest';
import en_us from './locales/en_us.json';
import zh_cn from './locales/zh_cn.json';
import zh_tw from './locales/zh_tw.json';
import zh_xg from './locales/zh_xg.json';
import { firstSections } from './sections.ts';

const webMessages = { zh_cn, zh_xg, zh_tw, en_us };

type Tree = { [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each([
  ['web', webMessages as Record<string, Tree>],
  ['contract', sharedMessages as Record<string, Tree>],
])('%s locale files', (_name, messages) => {
  const reference = flatten(messages.zh_cn as Tree);
  it.each(languages)('%s has exactly the keys and placeholders of zh_cn, none empty', (lang) => {
    const other = flatten(messages[lang] as Tree);
    expect(Object.keys(other).sort()).toEqual(Object.keys(reference).sort());
    for (const [key, text] of Object.entries(reference)) {
      expect(placeholders(other[key] ?? ''), key).toEqual(placeholders(text));
      expect(other[key]?.trim(), key).not.toBe('');
    }
  });
});

describe('keys used in code', () => {
  const srcDir = path.resolve(import.meta.dirname, '..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.test.tsx')) files.push(full);
    }
  };
  walk(srcDir);
  const known = new Set([
    ...Object.keys(flatten(webMessages.zh_cn as Tree)),
    ...Object.keys(flatten(sharedMessages.zh_cn as Tree)),
  ]);

  it('every static t() key exists in zh_cn', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        const key = match[1] ?? '';
        if (!known.has(key)) missing.push(`${path.relative(srcDir, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the two parts of each locale file (sections.ts)', () => {
  // Loaded through the build's plugin (vitest.config.ts), as the browser gets them.
  const files = {
    web: {
      whole: webMessages as Record<string, Tree>,
      first: import.meta.glob<Tree>('./locales/*.json', { query: '?texts=first', import: 'default' }),
      rest: import.meta.glob<Tree>('./locales/*.json', { query: '?texts=rest', import: 'default' }),
    },
    contract: {
      whole: sharedMessages as Record<string, Tree>,
      first: import.meta.glob<Tree>('../../../packages/contract/src/locales/*.json', {
        query: '?texts=first',
        import: 'default',
      }),
      rest: import.meta.glob<Tree>('../../../packages/contract/src/locales/*.json', {
        query: '?texts=rest',
        import: 'default',
      }),
    },
  };
  it.each(languages.flatMap((lang) => (['web', 'contract'] as const).map((name) => [name, lang] as const)))(
    '%s %s: the two parts hold every key of the file once',
    async (name, lang) => {
      const { whole, first: firsts, rest: rests } = files[name];
      const load = (glob: typeof firsts) =>
        Object.entries(glob).find(([file]) => file.endsWith(`/${lang}.json`))?.[1]();
      const first = (await load(firsts)) ?? {};
      const rest = (await load(rests)) ?? {};
      const sections = Object.keys(whole[lang] ?? {});
      expect(Object.keys(first).sort()).toEqual(sections.filter((s) => firstSections.includes(s)).sort());
      expect(Object.keys(rest).sort()).toEqual(sections.filter((s) => !firstSections.includes(s)).sort());
      expect(flatten({ ...first, ...rest })).toEqual(flatten(whole[lang] as Tree));
    },
  );

  it('every key the login page and the app frame use is in a first section', () => {
    // The files the login page runs: its page and what it loads on demand, the app frame
    // (providers, API client, session) and everything they import. Pages past the login page load
    // the rest of the texts before they render (router.tsx).
    const srcDir = path.resolve(import.meta.dirname, '..');
    const roots = ['features/auth/pages/login-page.tsx', 'app/providers.tsx', 'api/client.ts', 'session/session.ts'];
    const seen = new Set<string>();
    const queue = roots.map((file) => path.join(srcDir, file));
    const used = new Set<string>();
    while (queue.length > 0) {
      const file = queue.shift() ?? '';
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      // Static imports everywhere; the login page's lazy parts too (`import('./…')`).
      const imports = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+\.tsx?)'/g)].map((m) => m[1] ?? '');
      for (const spec of imports) queue.push(path.resolve(path.dirname(file), spec));
      for (const m of text.matchAll(/\b(?:t|text)\(\s*['`]([a-zA-Z0-9_]+)\./g))
        used.add(`${m[1]} (${path.relative(srcDir, file)})`);
    }
    expect(seen.size).toBeGreaterThan(roots.length);
    expect([...used].filter((entry) => !firstSections.includes(entry.split(' ')[0] ?? ''))).toEqual([]);
  });
});
