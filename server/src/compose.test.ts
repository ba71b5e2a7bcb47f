import { describe, expect, it } from 'vitest';
import type { AnyArea, Kernel } from './area.ts';
import { makeAreas, orderAreas } from './compose.ts';

const area = (name: string, needs: string[] = [], provides: string[] = [], extra: Partial<AnyArea> = {}): AnyArea => ({
  name,
  needs,
  provides,
  create: () => ({ provides: Object.fromEntries(provides.map((p) => [p, `${p} of ${name}`])) }),
  ...extra,
});
const kernel = {} as Kernel;

describe('the order of areas', () => {
  it('puts each area after those providing what it needs, whatever the listing order', () => {
    const order = orderAreas(
      [area('work-orders', ['duty']), area('notifier', ['dutyRoster']), area('duty', [], ['duty', 'dutyRoster'])],
      [],
    ).map((a) => a.name);
    expect(order.indexOf('duty')).toBeLessThan(order.indexOf('work-orders'));
    expect(order.indexOf('duty')).toBeLessThan(order.indexOf('notifier'));
  });

  it('refuses a need nobody provides, a service provided twice, a name used twice and a cycle', () => {
    expect(() => orderAreas([area('a', ['nothing'])], [])).toThrow('a needs nothing, which no area provides');
    expect(() => orderAreas([area('a', [], ['x']), area('b', [], ['x'])], [])).toThrow('x is provided by both a and b');
    expect(() => orderAreas([area('a'), area('a')], [])).toThrow('two areas are named a');
    expect(() => orderAreas([area('a', ['y'], ['x']), area('b', ['z'], ['y']), area('c', ['x'], ['z'])], [])).toThrow(
      'areas need each other in a cycle: a → b → c → a',
    );
  });

  it('takes what the composition root gives as provided', () => {
    expect(orderAreas([area('a', ['db'])], ['db']).map((a) => a.name)).toEqual(['a']);
  });
});

describe('making the areas', () => {
  it('hands each factory exactly what it declared it needs', async () => {
    const seen: Record<string, unknown> = {};
    const consumer = area('consumer', ['x'], [], {
      create: ({ needs }) => {
        Object.assign(seen, needs);
        return {};
      },
    });
    await makeAreas([consumer, area('p', [], ['x', 'y'])], kernel, {});
    expect(seen).toEqual({ x: 'x of p' });
  });

  it('refuses a factory that provides other than it declared', async () => {
    const liar = area('liar', [], ['x'], { create: () => ({ provides: { y: 1 } as never }) });
    await expect(makeAreas([liar], kernel, {})).rejects.toThrow('liar declares it provides [x] but made [y]');
  });

  it('lets a family be read once every area is made, with every contribution', async () => {
    let early: unknown;
    let read: (() => unknown) | undefined;
    const reader = area('reader', [], [], {
      create: ({ all }) => {
        try {
          all('passwordCheckers');
        } catch (err) {
          early = err;
        }
        read = () => all('passwordCheckers');
        return {};
      },
    });
    const contributor = (name: string, loginType: number) =>
      area(name, [], [], {
        create: () => ({ contributes: { passwordCheckers: [{ loginType, check: async () => true }] } }),
      });
    await makeAreas([reader, contributor('one', 2), contributor('two', 3)], kernel, {});
    expect(String(early)).toContain('read before every area is made');
    expect((read!() as Array<{ loginType: number }>).map((c) => c.loginType)).toEqual([2, 3]);
  });
});
