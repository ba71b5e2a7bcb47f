import { describe, expect, it } from 'vitest';
import type { Driver, DriverDevice, DriverItem, DriverSession } from '../../src/collector/driver.ts';

/** What one driver's conformance run needs: a device on a live peer and what its items should read. */
export interface DriverHarness {
  driver: () => Driver;
  device: () => DriverDevice;
  /** Items with the value each must read (within `tolerance`). */
  items: () => Array<{ item: DriverItem; expected: number; tolerance?: number }>;
  /** An item the peer does not have: it must fail alone, not the whole read. */
  missing?: () => DriverItem;
  /** A writable item and a value; the next read must return it. */
  writable?: () => { item: DriverItem; value: number };
  /** Stops and restarts the peer; absent for the simulator, which has none. */
  stopPeer?: () => Promise<void>;
  startPeer?: () => Promise<void>;
  /** Called before reads that need fresh data (e.g. MQTT re-publishes after a broker restart). */
  prime?: () => Promise<void>;
}

const readAll = async (session: DriverSession, items: DriverItem[]) => session.read(items);

/**
 * The conformance suite every driver passes (STYLE.md habit 5): values with data types and scales,
 * per-item errors, writes through the same driver, and a dead peer rejecting within the device
 * timeout and answering again once it is back.
 */
export const describeDriverConformance = (name: string, h: DriverHarness) => {
  describe(`driver conformance: ${name}`, () => {
    it('reads every item with its data type and scale', async () => {
      await h.prime?.();
      const session = await h.driver().connect(h.device());
      try {
        const cases = h.items();
        const result = await readAll(
          session,
          cases.map((c) => c.item),
        );
        for (const c of cases) {
          const got = result.values.get(c.item.id);
          expect(got, `item ${c.item.id}: ${result.errors.get(c.item.id) ?? ''}`).toBeTypeOf('number');
          expect(Math.abs((got as number) - c.expected), `item ${c.item.id} read ${got}`).toBeLessThanOrEqual(
            c.tolerance ?? 1e-9,
          );
        }
        expect(result.errors.size).toBe(0);
      } finally {
        await session.close();
      }
    });

    if (h.missing) {
      it('reports an item the device does not have on that item alone', async () => {
        await h.prime?.();
        const session = await h.driver().connect(h.device());
        try {
          const [first] = h.items();
          const missing = h.missing!();
          const result = await readAll(session, [first!.item, missing]);
          expect(result.values.has(first!.item.id)).toBe(true);
          expect(result.values.has(missing.id)).toBe(false);
          expect(result.errors.get(missing.id)).toBeTruthy();
        } finally {
          await session.close();
        }
      });
    }

    if (h.writable) {
      it('writes a setpoint through the same driver', async () => {
        await h.prime?.();
        const session = await h.driver().connect(h.device());
        try {
          const { item, value } = h.writable!();
          await session.write(item, value);
          const result = await readAll(session, [item]);
          expect(result.values.get(item.id)).toBeCloseTo(value, 6);
        } finally {
          await session.close();
        }
      });
    }

    if (h.stopPeer && h.startPeer) {
      it('rejects within the timeout while the peer is down and reads again when it is back', async () => {
        await h.prime?.();
        const device = h.device();
        const driver = h.driver();
        const items = h.items().map((c) => c.item);
        const session = await driver.connect(device);
        expect((await readAll(session, items)).values.size).toBe(items.length);
        await h.stopPeer!();
        const started = Date.now();
        const outcome = await Promise.race([
          readAll(session, items).then(
            () => 'answered',
            () => 'rejected',
          ),
          new Promise<string>((r) => setTimeout(() => r('hung'), device.options.timeout_ms + 1500)),
        ]);
        expect(outcome).toBe('rejected');
        expect(Date.now() - started).toBeLessThan(device.options.timeout_ms + 1500);
        await session.close();
        await h.startPeer!();
        await h.prime?.();
        let again: Awaited<ReturnType<DriverSession['read']>> | null = null;
        for (let i = 0; i < 20 && !again; i++) {
          try {
            const s = await driver.connect(device);
            try {
              const r = await readAll(s, items);
              if (r.values.size === items.length) again = r;
            } finally {
              await s.close();
            }
          } catch {
            await new Promise((r) => setTimeout(r, 250));
          }
        }
        expect(again?.values.size).toBe(items.length);
      });
    }
  });
};
