import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ModbusByteOrder, ModbusDataType } from '@sitewatch/contract/monitoring';

/** A register table entry: raw registers, or a value pymodbus encodes in a type and byte order. */
export type RegisterEntry =
  | { address: number; registers: number[] }
  | { address: number; type: ModbusDataType; order?: ModbusByteOrder; value: number };

type Table = 'holding' | 'input';

/**
 * Starts server/test/peers/modbus_peer.py (pymodbus, a Modbus server nobody here wrote) on a free
 * loopback port. `requests` lists the reads it was asked, and `asked(line, n)` resolves once it has
 * printed `line` n times in all (its log comes through its standard output, which may land after
 * the values it answered); `set` changes a register table while it runs (a value, or a hole
 * filled) and resolves once the peer serves it.
 */
export const pymodbusPeer = async (spec: { holding?: RegisterEntry[]; input?: RegisterEntry[]; coils?: object }) => {
  const script = fileURLToPath(new URL('../peers/modbus_peer.py', import.meta.url));
  const child: ChildProcess = spawn('/usr/bin/python3', [script, JSON.stringify(spec)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const requests: string[] = [];
  const waiting = new Set<() => void>();
  const asked = (line: string, n = 1) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (requests.filter((r) => r === line).length < n) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  const applied: Array<{ line: string; resolve: () => void }> = [];
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (d) => {
      buffered += String(d);
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [word, ...rest] = line.split(' ');
        if (word === 'port') resolve(Number(rest[0]));
        else if (word === 'request') {
          requests.push(rest.join(' '));
          for (const check of [...waiting]) check();
        } else if (word === 'set') {
          const at = applied.findIndex((a) => a.line === line);
          if (at >= 0) applied.splice(at, 1)[0]!.resolve();
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`pymodbus peer ended (${code}): ${stderr}`)));
  });
  return {
    port,
    requests,
    asked,
    set: (table: Table, entry: RegisterEntry) =>
      new Promise<void>((resolve) => {
        applied.push({ line: `set ${table} ${entry.address}`, resolve });
        child.stdin?.write(`${JSON.stringify({ table, ...entry })}\n`);
      }),
    stop: () => child.kill(),
  };
};

/** A float32 NaN as a meter whose sensor failed sends it (0x7FC00000). */
export const float32NaN = [0x7fc0, 0];
