import { copyFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DeclarationCatalogue, Kernel, SecretDeclaration } from '../../area.ts';
import { badRequest } from '../../http/errors.ts';
import { rewriteDeclaredSecrets } from '../../secrets/at-rest.ts';
import { createSecretBox, mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import { KeyFileRefused, openKeyFile } from '../../secrets/key-file.ts';

type Raw = Kysely<Record<string, Record<string, string | number>>>;

/** Seals every declared secret again with `next` (opened with `box`); a value that does not open is kept. */
const resealAll = (k: Raw, declared: SecretDeclaration[], box: SecretBox, next: SecretBox) => {
  const reseal = (v: string) => {
    if (!box.isEncrypted(v)) return v;
    const plain = box.decrypt(v);
    return plain === '' ? v : next.encrypt(plain);
  };
  return rewriteDeclaredSecrets(k, declared, (text, fields) => {
    const value = mapJsonFields(text, fields, reseal);
    return value === text ? null : value;
  });
};

/**
 * The install key (`secret.key`) carried to another install (docs/maintenance.md, "The install
 * key"): exported sealed with a passphrase; imported, it becomes this install's key. Every secret
 * the areas declare is sealed again with it in one transaction, so this install's own secrets stay
 * readable, and a package of the other install then opens here.
 */
export const createInstallKey = (deps: { kernel: Kernel; declarations: DeclarationCatalogue; secrets: SecretBox }) => {
  const { kernel, secrets } = deps;
  const file = path.join(kernel.config.dataDir, 'secret.key');
  return {
    export: (passphrase: string) => secrets.exportKey(passphrase),
    /** Installs the key of `text`; answers how many stored secrets were sealed again. */
    import: async (text: string, passphrase: string) => {
      let key: Buffer;
      try {
        key = openKeyFile(text, passphrase);
      } catch (err) {
        if (err instanceof KeyFileRefused) throw badRequest(`maintenance.key.${err.reason}`);
        throw err;
      }
      if (secrets.uses(key)) return { resealed: 0, changed: false };
      // The key file first, the one it replaces kept beside it: whatever a crash leaves, the next
      // start holds both keys (loadOrCreateSecretBox), so no secret is left that does not open.
      if (existsSync(file)) copyFileSync(file, `${file}.previous`);
      writeFileSync(`${file}.new`, key, { mode: 0o600 });
      renameSync(`${file}.new`, file);
      const next = createSecretBox(key);
      const declared = deps.declarations.all().flatMap((a) => [...(a.secrets ?? [])]);
      const resealed = await kernel.db.kysely
        .transaction()
        .execute((trx) => resealAll(trx as unknown as Raw, declared, secrets, next));
      secrets.rekey(key);
      return { resealed, changed: true };
    },
  };
};

export type InstallKey = ReturnType<typeof createInstallKey>;
