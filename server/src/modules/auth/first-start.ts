import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/kysely.ts';

/**
 * The first administrator's password, kept in the data dir for whoever installed the server (owner
 * only) until it is changed. A copy on disk invites reuse: the file goes with the first successful
 * change of user 1's password, and at any start after one.
 */
export const initialPasswordFile = (db: Db, dataDir: string) => {
  const file = path.join(dataDir, 'initial-admin-password.txt');
  return {
    file,
    write: (password: string) => writeFileSync(file, `${password}\n`, { mode: 0o600 }),
    async dropOnceChanged() {
      if (!existsSync(file)) return;
      const admin = await db.kysely
        .selectFrom('users')
        .select('must_change_password')
        .where('id', '=', 1)
        .executeTakeFirst();
      if (admin && !admin.must_change_password) rmSync(file, { force: true });
    },
  };
};
