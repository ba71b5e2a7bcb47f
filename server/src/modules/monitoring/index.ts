import { readdir } from 'node:fs/promises';
import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import type { SecretBox } from '../../secrets/index.ts';
import type { AccessService } from '../access/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { pointTablesWorkbook } from './point-tables.ts';
import { createMonitoringRepository } from './repository.ts';
import { createMonitoringService, type LiveSource } from './service.ts';

/** A point table download: xlsx, or CSV as UTF-8 text. */
const sendPointFile = (reply: FastifyReply, format: 'xlsx' | 'csv', file: { name: string; buffer: Buffer }) =>
  format === 'xlsx'
    ? sendXlsx(reply, `${file.name}.xlsx`, file.buffer)
    : reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.name}.csv"`)
        .send(file.buffer);

/** Serial ports of this host as device names. */
export const hostSerialPorts = async (): Promise<string[]> => {
  const names = await readdir('/dev').catch(() => [] as string[]);
  return names
    .filter((n) => /^tty(USB|ACM|AMA|S)\d+$/.test(n))
    .filter((n) => !/^ttyS([4-9]|\d\d+)$/.test(n))
    .map((n) => `/dev/${n}`)
    .slice(0, 64);
};

/**
 * Sites, devices, items, templates, categories, time periods and serial ports (002 §7.1), and the
 * live views of the station page (002 §7.3). Site-based permissions plug in through `allowed`.
 */
export const registerMonitoring = (
  app: FastifyInstance,
  deps: {
    db: Db;
    collector?: LiveSource | undefined;
    audit?: AuditLog | undefined;
    bus?: Pick<EventBus, 'publish'>;
    secrets: SecretBox;
    access: AccessService;
  },
) => {
  const service = createMonitoringService({
    // Writes of sites, devices, items and time periods announce themselves on the bus.
    repo: createMonitoringRepository(deps.db, deps.bus),
    secrets: deps.secrets,
    live: deps.collector,
    listHostSerialPorts: hostSerialPorts,
  });
  // Every read is limited to the caller's granted sites (null: all, for user 1 and role 1), and every
  // write goes through the same scope: rows of other sites are not found, other target sites refused.
  const allowed = (request: FastifyRequest) => deps.access.sites(request);
  const scope = (request: FastifyRequest) => deps.access.scope(request);

  addRoute(app, r.listSites, async ({ query, request }) => service.listSites(query, await allowed(request)));
  addRoute(app, r.getSite, async ({ params, request }) => service.getSite(params.id, await allowed(request)));
  addRoute(
    app,
    r.createSite,
    async ({ body, request }) => {
      const site = await service.createSite(body, await scope(request));
      await deps.access.grantSitesToCaller(request, [site.id]);
      return site;
    },
    { permission: { menu: 211, func: 'add' } },
  );
  addRoute(
    app,
    r.updateSite,
    async ({ params, body, request }) => service.updateSite(params.id, body, await scope(request)),
    {
      permission: { menu: 211, func: 'edit' },
    },
  );
  addRoute(
    app,
    r.deleteSite,
    async ({ params, request }) => {
      await service.deleteSites([params.id], await scope(request));
      return null;
    },
    { permission: { menu: 211, func: 'delete' } },
  );
  addRoute(
    app,
    r.deleteSites,
    async ({ query, request }) => ({ deleted: await service.deleteSites(query.ids, await scope(request)) }),
    {
      permission: { menu: 211, func: 'delete' },
    },
  );
  addRoute(
    app,
    r.copySite,
    async ({ params, body, request }) => {
      const copies = await service.copySite(params.id, body, await scope(request));
      await deps.access.grantSitesToCaller(
        request,
        copies.map((c) => c.id),
      );
      return copies;
    },
    { permission: { menu: 211, func: 'copy' } },
  );
  addRoute(app, r.siteMenu, async ({ request }) => service.siteMenu(await allowed(request)));

  addRoute(app, r.listCategories, ({ request }) => service.listCategories(requestLanguage(request)));
  addRoute(
    app,
    r.updateCategory,
    ({ params, body, request }) => service.updateCategory(params.code, body, requestLanguage(request)),
    { permission: { menu: 212, func: 'edit' } },
  );
  addRoute(app, r.listTemplates, ({ query, request }) => service.listTemplates(query, requestLanguage(request)));
  addRoute(app, r.getTemplate, ({ params, request }) => service.getTemplate(params.id, requestLanguage(request)));
  addRoute(app, r.createTemplate, ({ body, request }) => service.createTemplate(body, requestLanguage(request)), {
    permission: { menu: 212, func: 'add' },
  });
  addRoute(
    app,
    r.createTemplateFromDevice,
    async ({ body, request }) => service.createTemplateFromDevice(body, requestLanguage(request), await scope(request)),
    { permission: { menu: 212, func: 'add' } },
  );
  addRoute(
    app,
    r.updateTemplate,
    ({ params, body, request }) => service.updateTemplate(params.id, body, requestLanguage(request)),
    { permission: { menu: 212, func: 'edit' } },
  );
  addRoute(app, r.deleteTemplate, ({ params }) => service.deleteTemplate(params.id), {
    permission: { menu: 212, func: 'delete' },
  });
  addRoute(
    app,
    r.exportTemplatePoints,
    async ({ params, query, request, reply }) => {
      const file = await service.templatePointFile(params.id, query.format, requestLanguage(request));
      await sendPointFile(reply, query.format, file);
      return null;
    },
    { permission: { menu: 212, func: 'export' } },
  );
  addRoute(
    app,
    r.exportDevicePoints,
    async ({ params, query, request, reply }) => {
      const file = await service.devicePointFile(params.id, query.format, await scope(request));
      await sendPointFile(reply, query.format, file);
      return null;
    },
    { permission: { menu: 212, func: 'export' } },
  );
  addRoute(
    app,
    r.importDevicePoints,
    async ({ params, body, request }) =>
      service.importDevicePoints(params.id, body, requestLanguage(request), await scope(request)),
    { permission: { menu: 213, func: 'import' } },
  );
  addRoute(app, r.snmpJson, ({ request }) => service.snmpJson(requestLanguage(request)));

  addRoute(app, r.listDevices, async ({ query, request }) => service.listDevices(query, await allowed(request)));
  addRoute(app, r.getDevice, async ({ params, request }) => service.getDevice(params.id, await allowed(request)));
  addRoute(
    app,
    r.createDevice,
    async ({ body, request }) => service.createDevice(body, requestLanguage(request), await scope(request)),
    {
      permission: { menu: 212, func: 'add' },
    },
  );
  addRoute(
    app,
    r.bulkUpdateDevices,
    async ({ body, request }) => service.bulkUpdateDevices(body, await scope(request)),
    {
      permission: { menu: 212, func: 'edit' },
    },
  );
  addRoute(
    app,
    r.updateDevice,
    async ({ params, body, request }) => service.updateDevice(params.id, body, await scope(request)),
    {
      permission: { menu: 212, func: 'edit' },
    },
  );
  addRoute(app, r.deleteDevice, async ({ params, request }) => service.deleteDevice(params.id, await scope(request)), {
    permission: { menu: 212, func: 'delete' },
  });
  addRoute(
    app,
    r.copyDevice,
    async ({ params, body, request }) => service.copyDevice(params.id, body, await scope(request)),
    {
      permission: { menu: 212, func: 'copy' },
    },
  );

  addRoute(app, r.listItems, async ({ query, request }) => service.listItems(query, await allowed(request)));
  addRoute(app, r.getItem, async ({ params, request }) => service.getItem(params.id, await allowed(request)));
  addRoute(app, r.createItem, async ({ body, request }) => service.createItem(body, await scope(request)), {
    permission: { menu: 213, func: 'add' },
  });
  addRoute(
    app,
    r.bulkUpdateItems,
    async ({ body, request }) => service.bulkUpdateItems(body, requestLanguage(request), await scope(request)),
    {
      permission: { menu: 213, func: 'edit' },
    },
  );
  addRoute(
    app,
    r.updateItem,
    async ({ params, body, request }) => service.updateItem(params.id, body, await scope(request)),
    {
      permission: { menu: 213, func: 'edit' },
    },
  );
  addRoute(app, r.deleteItem, async ({ params, request }) => service.deleteItem(params.id, await scope(request)), {
    permission: { menu: 213, func: 'delete' },
  });

  addRoute(app, r.listTimePeriods, ({ query }) => service.listPeriods(query));
  addRoute(app, r.createTimePeriod, ({ body }) => service.createPeriod(body), {
    permission: { menu: 213, func: 'edit' },
  });
  addRoute(app, r.updateTimePeriod, ({ params, body }) => service.updatePeriod(params.id, body), {
    permission: { menu: 213, func: 'edit' },
  });
  addRoute(app, r.deleteTimePeriod, ({ params }) => service.deletePeriod(params.id), {
    permission: { menu: 213, func: 'edit' },
  });
  addRoute(app, r.listSerialPorts, () => service.listSerialPorts());
  addRoute(app, r.saveSerialPort, ({ body }) => service.saveSerialPort(body), {
    permission: { menu: 212, func: 'edit' },
  });

  for (const [route, kind] of [
    [r.modbusExcel, 'modbus'],
    [r.snmpExcel, 'snmp'],
  ] as const) {
    addRoute(
      app,
      route,
      async ({ request, reply }) => {
        const lang = requestLanguage(request);
        const { data: templates } = await service.listTemplates({ page: 1, limit: 1000 }, lang);
        const buffer = await pointTablesWorkbook(templates, kind, lang);
        await sendXlsx(reply, `${kind}_points.xlsx`, buffer);
        return null;
      },
      { permission: { menu: 212, func: 'export' } },
    );
  }

  addRoute(app, r.deviceData, async ({ query, request }) =>
    service.deviceData(query.device_group_id, await allowed(request)),
  );
  addRoute(app, r.deviceItems, async ({ query, request }) =>
    service.deviceItems(query.device_id, query.cell_names, await allowed(request)),
  );
  addRoute(
    app,
    r.writeItem,
    async ({ body, request }) => {
      const sites = await allowed(request);
      // The operation log names the item (target) and the value, so the device log can show the write;
      // a refused write of a visible item is logged too, with its reason.
      const entry = { module: 'device_groups/device/item', action: 'update', target: String(body.item_id) } as const;
      try {
        const result = await service.writeItem(body.item_id, body.value, sites);
        await deps.audit?.write({ ...entry, success: true, detail: String(body.value) }, request);
        return result;
      } catch (err) {
        if (err instanceof AppError && err.name === 'conflict') {
          await deps.audit?.write({ ...entry, success: false, detail: err.refusedWrite(body.value) }, request);
        }
        throw err;
      }
    },
    {
      permission: { menu: 101, func: 'control' },
    },
  );
  addRoute(app, r.dataview, async ({ query, request }) => service.dataview(query, await allowed(request)));
  addRoute(app, r.statistics, async ({ request }) => service.statistics(await allowed(request)));
};
