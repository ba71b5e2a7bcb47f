import { defineArea } from '../../area.ts';
import { workOrderKind } from './action-kind.ts';
import { createWorkOrders, registerWorkOrders } from './index.ts';

/** Work orders, their dispatch rules and statistics (002 §2.3; docs/work-orders.md). */
export const area = defineArea({
  name: 'work-orders',
  needs: ['push', 'duty', 'access'],
  tables: {
    work_orders: { sites: { site: 'device_group_id' } },
    work_order_history: { sites: { parent: 'work_orders', column: 'order_id' } },
    work_order_files: { sites: { parent: 'work_orders', column: 'order_id' } },
    work_order_sets: { sites: { sites: 'device_group_ids' } },
  },
  uploads: ['work-orders'],
  events: { consumes: ['alarm.raised', 'alarm.recovered'] },
  menus: [
    { id: 740, parent_id: 0, name_key: 'menu.workOrderGroup', icon: 'solution', weight: 870 },
    {
      id: 741,
      parent_id: 740,
      name_key: 'menu.workOrder',
      url: '/work_order',
      icon: 'solution',
      weight: 542,
      functions: ['view', 'add', 'edit'],
    },
    {
      id: 742,
      parent_id: 740,
      name_key: 'menu.workOrderStatistics',
      url: '/workorder_statistics',
      icon: 'bar-chart',
      weight: 541,
      functions: ['view'],
    },
  ],
  create: ({ kernel, needs }) => {
    // Who is on duty is recorded on each order.
    const orders = createWorkOrders({ db: kernel.db, push: needs.push, clock: kernel.clock, duty: needs.duty });
    return {
      // An action (linkage, timed task, an item's overrun) may send an order, as a dispatch rule does.
      contributes: { actionKinds: [workOrderKind(orders.service, orders.repo)] },
      routes: (app) =>
        registerWorkOrders(app, {
          db: kernel.db,
          bus: kernel.bus,
          push: needs.push,
          dataDir: kernel.config.dataDir,
          clock: kernel.clock,
          access: needs.access,
          orders,
        }),
    };
  },
});
