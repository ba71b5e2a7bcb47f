import { createCipheriv, randomBytes } from 'node:crypto';
import { open, readlink, stat } from 'node:fs/promises';
import { findBinary, runBounded } from './tools.ts';

/**
 * The debug-log download (docs/system.md, "Debug log"): the last megabytes of the server's own log,
 * with secrets redacted. The server writes its log to standard output (pino); where that goes is the
 * host's choice, so the download reads it from where it finds it: the file standard output or error
 * is written to (`npm start > sitewatch.log`, systemd's `StandardOutput=append:`), else journald
 * when the server runs under systemd with its output in the journal. A terminal or a pipe keeps
 * nothing the server could read back: then the page says so instead of offering an empty file.
 */

export type LogSource = { kind: 'file'; file: string } | { kind: 'journal'; journalctl: string } | { kind: 'none' };

/** Where this process's log can be read from. */
export const findLogSource = async (pid = process.pid, env = process.env): Promise<LogSource> => {
  for (const fd of [1, 2]) {
    try {
      const target = await readlink(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('/') && (await stat(target)).isFile()) return { kind: 'file', file: target };
    } catch {
      // no /proc, or not a file
    }
  }
  const journalctl = env.JOURNAL_STREAM ? findBinary('journalctl') : null;
  if (journalctl) return { kind: 'journal', journalctl };
  return { kind: 'none' };
};

/** The last `bytes` of a file, starting at a whole line. */
export const tailOfFile = async (file: string, bytes: number): Promise<string> => {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
};

/** The last `bytes` of this process's journal (`journalctl _PID=`), bounded in time. */
export const tailOfJournal = async (journalctl: string, bytes: number, pid = process.pid): Promise<string> => {
  const run = await runBounded(journalctl, ['--no-pager', '-o', 'cat', `_PID=${pid}`, '-n', '200000'], 20_000);
  return run.output.length > bytes ? run.output.slice(run.output.length - bytes) : run.output;
};

const secretKey =
  /pass(word)?|pwd|token|secret|authorization|cookie|api[-_]?key|private[-_]?key|^key$|_key$|sm4|credential|captcha/i;
const redacted = '[redacted]';

const redactValue = (value: unknown, depth = 0): unknown => {
  if (depth > 20 || value === null || typeof value !== 'object')
    return typeof value === 'string' ? redactText(value) : value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = secretKey.test(k) ? redacted : redactValue(v, depth + 1);
  return out;
};

/** Text patterns of secrets wherever they appear (URLs, headers, pretty lines, messages). */
const textPatterns: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${redacted}`],
  [/\bswt_[A-Za-z0-9_-]+/g, redacted],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, redacted],
  [
    /([?&;\s"']?(?:pass(?:word)?|pwd|token|secret|api[-_]?key|key|sm4|verify_password)["']?\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&"',;}]+)/gi,
    `$1${redacted}`,
  ],
  [/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/gi, `$1${redacted}@`],
];

/** One line with its secrets replaced: a JSON line field by field, any line by the text patterns. */
export const redactLine = (line: string): string => {
  const trimmed = line.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed)));
    } catch {
      // not JSON after all: the text patterns
    }
  }
  return redactText(line);
};

function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of textPatterns) out = out.replace(pattern, replacement);
  return out;
}

const pemBlock = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g;

/** A whole log: private-key blocks across lines first, then line by line. */
export const redactLog = (text: string): string =>
  text.replace(pemBlock, redacted).split('\n').map(redactLine).join('\n');

/**
 * Encrypts with SM4-CBC under a 128-bit key: the 16-byte IV, then the ciphertext (PKCS#7 padding).
 * `openssl enc -d -sm4-cbc -K <key> -iv <first 16 bytes as hex>` reads it (docs/system.md).
 */
export const sm4Encrypt = (plain: Buffer, keyHex: string): Buffer => {
  const iv = randomBytes(16);
  const cipher = createCipheriv('sm4-cbc', Buffer.from(keyHex, 'hex'), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
};
