/**
 * The texts split in two at build time (text-sections-plugin.ts), so the login page does not
 * download every area's texts (issue 7: its scripts under 350 KB gzipped):
 * - `first`: the sections the login page and the app frame use, loaded before the first render;
 * - `rest`: every other section, loaded before any page past the login page renders (router.tsx).
 * One list for the web's and the contract's files, so a section both have (e.g. `login`) is in the
 * same part on both sides and the contract's text still wins where both have a key (index.ts).
 * locales.test.ts checks that every key the login page's code uses is in a first section.
 */
export const firstSections: readonly string[] = [
  'app',
  'common',
  'http',
  'themes',
  'languages',
  'login',
  'ldap',
  'validation',
  'auth',
  'password',
];

export type TextPart = 'first' | 'rest';

export type TextTree = { [key: string]: string | TextTree };

/** The top-level sections of `tree` that belong to `part`. */
export const pickSections = (tree: TextTree, part: TextPart): TextTree =>
  Object.fromEntries(
    Object.entries(tree).filter(([section]) => firstSections.includes(section) === (part === 'first')),
  );
