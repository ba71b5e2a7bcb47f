import { backupError } from './errors.ts';

/**
 * The rows of a PostgreSQL package, checked before any of it runs (docs/maintenance.md, "Restore"):
 * `pg_restore --file=-` writes the part as SQL, and that text comes from the package. Only plain
 * `INSERT INTO public.<table> [(columns)] [OVERRIDING SYSTEM VALUE] VALUES (literal, …), …` of the
 * tables the restore replaces is kept, where a literal is a quoted string, a number, NULL, true or
 * false (what pg_dump writes); pg_dump's session settings (`SET …`, `set_config`, `setval`) and
 * psql meta-commands are dropped (the restore makes its own); anything else (another statement, a
 * function call, a cast, an escape string, another table) refuses the package. Strings are read
 * with `standard_conforming_strings` on, as the restore sets it.
 */
export const checkedInserts = (script: string, tables: readonly string[]): string[] => {
  const allowed = new Set(tables);
  const statements: string[] = [];
  let tokens: Token[] = [];
  let start = -1;
  let at = 0;
  const refuse = () => backupError('corrupt');
  while (at < script.length) {
    const c = script[at]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      at++;
      continue;
    }
    if (c === '-' && script[at + 1] === '-') {
      const end = script.indexOf('\n', at);
      at = end < 0 ? script.length : end + 1;
      continue;
    }
    // A psql meta-command (\restrict …) only where no statement has begun: to the end of its line.
    if (c === '\\' && tokens.length === 0) {
      const end = script.indexOf('\n', at);
      at = end < 0 ? script.length : end + 1;
      continue;
    }
    if (c === ';') {
      if (tokens.length > 0) {
        const text = script.slice(start, at);
        if (keep(tokens, allowed, refuse)) statements.push(text);
      }
      tokens = [];
      at++;
      continue;
    }
    const token = tokenAt(script, at);
    if (!token) throw refuse();
    if (tokens.length === 0) start = at;
    tokens.push(token);
    at = token.end;
  }
  if (tokens.length > 0) throw refuse();
  return statements;
};

interface Token {
  kind: 'string' | 'ident' | 'quoted' | 'number' | 'punct';
  text: string;
  end: number;
}

const patterns: [Token['kind'], RegExp][] = [
  ['string', /'(?:[^']|'')*'/y],
  ['quoted', /"(?:[^"]|"")+"/y],
  ['number', /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  ['ident', /[A-Za-z_][A-Za-z0-9_]*/y],
  ['punct', /[(),.=-]/y],
];

const tokenAt = (text: string, at: number): Token | null => {
  for (const [kind, pattern] of patterns) {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (m) return { kind, text: m[0], end: at + m[0].length };
  }
  return null;
};

const word = (t: Token | undefined, w: string) => t?.kind === 'ident' && t.text.toLowerCase() === w;
const name = (t: Token | undefined) =>
  t?.kind === 'ident' ? t.text.toLowerCase() : t?.kind === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : null;

/** True for an INSERT to keep, false for a session setting to drop; throws for anything else. */
const keep = (tokens: Token[], tables: Set<string>, refuse: () => Error): boolean => {
  const first = tokens[0];
  if (word(first, 'set')) {
    // SET name = value: words, numbers and strings only.
    if (!tokens.slice(1).every((t) => t.kind !== 'punct' || t.text === '=')) throw refuse();
    return false;
  }
  if (word(first, 'select')) {
    // SELECT pg_catalog.set_config(…) / pg_catalog.setval(…) of literals: dropped, never run.
    const fn = tokens[3]?.text.toLowerCase();
    if (!word(tokens[1], 'pg_catalog') || tokens[2]?.text !== '.' || (fn !== 'set_config' && fn !== 'setval'))
      throw refuse();
    return false;
  }
  let i = 0;
  const next = () => tokens[i++];
  if (!word(next(), 'insert') || !word(next(), 'into') || !word(next(), 'public') || next()?.text !== '.')
    throw refuse();
  const table = name(next());
  if (table === null || !tables.has(table)) throw refuse();
  if (tokens[i]?.text === '(') {
    i++;
    for (;;) {
      if (name(next()) === null) throw refuse();
      const sep = next()?.text;
      if (sep === ')') break;
      if (sep !== ',') throw refuse();
    }
  }
  if (word(tokens[i], 'overriding')) {
    if (!word(tokens[i + 1], 'system') || !word(tokens[i + 2], 'value')) throw refuse();
    i += 3;
  }
  if (!word(next(), 'values')) throw refuse();
  for (;;) {
    if (next()?.text !== '(') throw refuse();
    for (;;) {
      let t = next();
      if (t?.text === '-') t = next();
      const literal =
        t?.kind === 'string' || t?.kind === 'number' || word(t, 'null') || word(t, 'true') || word(t, 'false');
      if (!literal) throw refuse();
      const sep = next()?.text;
      if (sep === ')') break;
      if (sep !== ',') throw refuse();
    }
    if (i === tokens.length) return true;
    if (next()?.text !== ',') throw refuse();
  }
};
