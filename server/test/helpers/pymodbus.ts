import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ModbusByteOrder, ModbusDataType } from '@sitewatch/contract/monitoring';

/** A register table entry: raw registers, or a value pymodbus encodes in a type and byte order. */
export type RegisterEntry =
  | { address: number; registers: number[] }
  | { address: number; type: ModbusDataType; order: ModbusByteOrder; value: number };

/** Starts server/test/peers/modbus_peer.py on a free loopback port; `requests` lists what it was asked. */
export const pymodbusPeer = async (spec: { holding?: RegisterEntry[]; input?: RegisterEntry[]; coils?: object }) => {
  const script = fileURLToPath(new URL('../peers/modbus_peer.py', import.meta.url));
  const child: ChildProcess = spawn('/usr/bin/python3', [script, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const requests: string[] = [];
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
        else if (word === 'request') requests.push(rest.join(' '));
      }
    });
    child.on('exit', (code) => reject(new Error(`pymodbus peer ended (${code}): ${stderr}`)));
    setTimeout(() => reject(new Error(`pymodbus peer did not start: ${stderr}`)), 10_000);
  });
  return { port, requests, stop: () => child.kill() };
};
