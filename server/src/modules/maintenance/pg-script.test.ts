import { describe, expect, it } from 'vitest';
import { checkedInserts } from './pg-script.ts';

const preamble = `--
-- PostgreSQL database dump
--

\\restrict abc123

SET statement_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
`;

describe('the rows of a PostgreSQL package', () => {
  it('keeps the inserts of the restored tables and drops the session settings', () => {
    const script = `${preamble}
--
-- Data for Name: devices; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.devices VALUES
\t(1, 'a '' quote; and -- not a comment', NULL, true, -1.5e3),
\t(2, 'two
\\restrict in a string', 3, false, 0);
INSERT INTO public."items" (id, "name") OVERRIDING SYSTEM VALUE VALUES (7, 'x\\');
SELECT pg_catalog.setval('public.devices_id_seq', 2, true);

\\unrestrict abc123
`;
    const kept = checkedInserts(script, ['devices', 'items']);
    expect(kept).toHaveLength(2);
    expect(kept[0]).toContain("'two\n\\restrict in a string'");
    expect(kept[1]).toBe(`INSERT INTO public."items" (id, "name") OVERRIDING SYSTEM VALUE VALUES (7, 'x\\')`);
  });

  it.each([
    ['another statement', 'DROP TABLE public.users;'],
    ['a table the restore does not replace', "INSERT INTO public.users VALUES (1, 'x');"],
    ['a function call in the values', "INSERT INTO public.devices VALUES (1, pg_read_file('/etc/passwd'));"],
    ['a subquery', 'INSERT INTO public.devices VALUES ((SELECT 1));'],
    ['a cast', "INSERT INTO public.devices VALUES ('1'::int);"],
    ['an escape string', "INSERT INTO public.devices VALUES (E'\\x41');"],
    ['a second statement after the values', 'INSERT INTO public.devices VALUES (1) RETURNING id;'],
    ['another schema', 'INSERT INTO pg_catalog.pg_authid VALUES (1);'],
    ['a select of something else', "SELECT pg_catalog.lo_import('/etc/passwd');"],
    ['a copy', 'COPY public.devices FROM PROGRAM $$id$$;'],
    ['a statement cut short', 'INSERT INTO public.devices VALUES (1'],
  ])('refuses %s', (_what, statement) => {
    expect(() => checkedInserts(`${preamble}${statement}\n`, ['devices'])).toThrow(
      expect.objectContaining({ message: 'maintenance.backup.corrupt' }),
    );
  });
});
