import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { api } from './client.ts';

/**
 * `api.call` is typed by the route table on the request side: the typecheck (tsc over web/src)
 * fails if any line below stops being an error. The calls are never made.
 */
const never = false;
describe('api.call input types', () => {
  it('refuses what the server would refuse, at compile time', () => {
    if (never) {
      // @ts-expect-error a body field of the wrong type
      void api.call(r.createSite, { body: { name: 1 } });
      // @ts-expect-error a route with a required body called without one
      void api.call(r.createSite);
      // @ts-expect-error a path parameter the route does not have
      void api.call(r.getSite, { params: { idx: 3 } });
      // @ts-expect-error a body on a route that takes none
      void api.call(r.siteMenu, { body: { x: 1 } });
      // @ts-expect-error a query field the route does not know
      void api.call(r.listDevices, { query: { nope: 1 } });
      void api.call(r.listDevices, { query: { page: 1, limit: 10 } });
    }
    expect(never).toBe(false);
  });
});
