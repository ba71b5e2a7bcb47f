import { describe, expect, it } from 'vitest';
import { partDevicesOf, topLevelMeters, withSite } from './site-total.ts';

const meter = (id: number, category: string, device_group_id: number, device_id = id) => ({
  id,
  category,
  device_group_id,
  device_id,
  device_group_name: `site ${device_group_id}`,
});

describe('a site total is the sum of its top-level meters (docs/energy.md "A site\'s total")', () => {
  it("takes a site's incoming meters and leaves out the parts beneath them", () => {
    const top = topLevelMeters([meter(1, 'total', 1), meter(2, 'it', 1), meter(3, 'cooling', 1)]);
    expect(top).toEqual({ meters: [meter(1, 'total', 1)], source: 'total_meters' });
  });

  it('sums every meter of a site without an incoming meter, site by site', () => {
    const top = topLevelMeters([meter(1, 'total', 1), meter(2, 'it', 1), meter(3, 'it', 2), meter(4, 'other', 2)]);
    expect(top.meters.map((m) => m.id)).toEqual([1, 3, 4]);
    expect(top.source).toBe('sum_of_parts');
    expect(topLevelMeters([])).toEqual({ meters: [], source: 'sum_of_parts' });
  });

  it('marks each row with its site name and whether it counts', () => {
    expect(withSite([meter(1, 'total', 1), meter(2, 'it', 1)]).map((m) => [m.site_name, m.in_site_total])).toEqual([
      ['site 1', true],
      ['site 1', false],
    ]);
  });

  it('names the devices that measure only parts (their power is in the incoming meter)', () => {
    // Device 10 carries the incoming meter and an IT one; device 20 only IT; device 30 a site without incoming.
    const parts = partDevicesOf([
      meter(1, 'total', 1, 10),
      meter(2, 'it', 1, 10),
      meter(3, 'it', 1, 20),
      meter(4, 'it', 2, 30),
    ]);
    expect([...parts]).toEqual([20]);
  });
});
