import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { languages, sharedMessages } from '@sitewatch/contract';
import { describe, expect, it } from 'vitest';
import en_us from './locales/en_us.json';
import zh_cn from './locales/zh_cn.json';
import zh_tw from './locales/zh_tw.json';
import zh_xg from './locales/zh_xg.json';

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
