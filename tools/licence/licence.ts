/**
 * The vendor's licence tool (docs/licence.md). Run from the repository root:
 *
 *   npx tsx tools/licence/licence.ts keygen [dir]          a key pair: dir/vendor-private.pem (keep it
 *                                                          secret, off this repository) and dir/vendor-public.pem
 *   npx tsx tools/licence/licence.ts sign --key <private.pem> --sn <serial> [--edition <name>]
 *        [--expires YYYY-MM-DD | --expires never] --devices <n> --items <n> [--category code=n ...]
 *                                                          prints an activation code
 *
 * The product holds only the public key (server/src/modules/licence/vendor-key.ts); a new pair means
 * a new product build with the new public key.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeVendorKeys, signCode } from '../../server/src/modules/licence/code.ts';

const [command, ...rest] = process.argv.slice(2);

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

const whole = (value: string | undefined, name: string) => {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 0) return fail(`--${name} needs a whole number`);
  return n;
};

if (command === 'keygen') {
  const dir = rest[0] ?? 'tools/licence/keys';
  mkdirSync(dir, { recursive: true });
  const keys = makeVendorKeys();
  writeFileSync(path.join(dir, 'vendor-private.pem'), keys.privateKey, { mode: 0o600, flag: 'wx' });
  writeFileSync(path.join(dir, 'vendor-public.pem'), keys.publicKey, { flag: 'wx' });
  process.stdout.write(`${keys.publicKey}written to ${dir}\n`);
} else if (command === 'sign') {
  const { values } = parseArgs({
    args: rest,
    options: {
      key: { type: 'string' },
      sn: { type: 'string' },
      edition: { type: 'string', default: 'standard' },
      expires: { type: 'string', default: 'never' },
      devices: { type: 'string' },
      items: { type: 'string' },
      category: { type: 'string', multiple: true, default: [] },
    },
  });
  if (!values.key) fail('--key <private.pem> is needed');
  if (!values.sn) fail('--sn <serial number> is needed');
  let expires = 0;
  if (values.expires !== 'never') {
    const at = Date.parse(`${values.expires}T23:59:59Z`);
    if (!Number.isFinite(at)) fail('--expires takes YYYY-MM-DD or never');
    expires = Math.floor(at / 1000);
  }
  const categories: Record<string, number> = {};
  for (const c of values.category ?? []) {
    const [code, n] = c.split('=');
    if (!code) fail('--category takes code=n');
    categories[code!] = whole(n, 'category');
  }
  const code = signCode(
    {
      sn: values.sn!,
      edition: values.edition ?? 'standard',
      expires,
      devices: whole(values.devices, 'devices'),
      items: whole(values.items, 'items'),
      categories,
      issued: Math.floor(Date.now() / 1000),
    },
    readFileSync(values.key!, 'utf8'),
  );
  process.stdout.write(`${code}\n`);
} else {
  fail('usage: licence.ts keygen [dir] | sign --key <private.pem> --sn <serial> --devices <n> --items <n> …');
}
