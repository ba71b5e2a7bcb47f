/**
 * Prints a one-time recovery code for a locked-out administrator (docs/recovery.md). Run on the box,
 * from the repository root, with the service's configuration (SITEWATCH_DATA_DIR or SITEWATCH_CONFIG):
 *
 *   npm run recovery-code                      the data dir of the configuration (default ./data)
 *   npm run recovery-code -- --data-dir <dir>  another data dir
 *
 * The code is valid once, for 15 minutes, and 5 wrong tries destroy it; only its salted hash is
 * written (`<data dir>/recovery-code.json`, owner only). A new code replaces the one before.
 */
import { chownSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { recoveryRules } from '../../packages/contract/src/recovery.ts';
import { loadConfig } from '../../server/src/config.ts';
import { issueRecoveryCode, recoveryFileName } from '../../server/src/modules/recovery/index.ts';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
const dataDir = path.resolve(values['data-dir'] ?? loadConfig().dataDir);
if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
  process.stderr.write(`No data dir at ${dataDir} (set SITEWATCH_DATA_DIR or pass --data-dir)\n`);
  process.exit(2);
}
const { code, expires_at } = await issueRecoveryCode(dataDir, Date.now());
// Run as root for a service that runs as its own user: the file goes to the data dir's owner.
const owner = statSync(dataDir);
if (process.getuid?.() === 0) chownSync(path.join(dataDir, recoveryFileName), owner.uid, owner.gid);
process.stdout.write(
  [
    `Recovery code: ${code}`,
    `Valid once, until ${new Date(expires_at * 1000).toISOString()} (${recoveryRules.codeMinutes} minutes); ${recoveryRules.attempts} wrong tries destroy it.`,
    'On the login page choose "Administrator recovery", enter the code and set a new password for the administrator.',
    '',
  ].join('\n'),
);
