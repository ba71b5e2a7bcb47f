import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import { envelope, errorEnvelope, nowSeconds, sharedText } from '@sitewatch/contract';
import { workOrderRoutes as r, workOrderFile, workOrderUploads } from '@sitewatch/contract/work-orders';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { PushHub } from '../../push/hub.ts';
import { type AccessService, holdsEverySite } from '../access/index.ts';
import { createWorkOrderRepository } from './repository.ts';
import { createWorkOrderService, type DutyLookup } from './service.ts';

/** /work_order (menu 741) and /workorder_statistics (menu 742), migration 0019. */
const orders = 741;
const statisticsMenu = 742;
/** 002 §5.1: work-order attachments are jpg and png only, told by their content. */
const attachmentExtensions = new Set(['jpg', 'jpeg', 'png']);
const contentTypes = { png: 'image/png', jpg: 'image/jpeg' } as const;
const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);
/** The PNG signature or a JPEG start of image; anything else (a renamed document) is refused. */
export const sniffAttachment = (buf: Buffer): 'png' | 'jpg' | null => {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'jpg';
  return null;
};

/**
 * Work orders (issue 16; docs/work-orders.md): the routes of 002 §7.7, attachments, and automatic
 * dispatch from raised alarms. Every change is pushed to the order's users, so the handler's bell
 * shows a new order at once.
 */
export const registerWorkOrders = (
  app: FastifyInstance,
  deps: {
    db: Db;
    bus: EventBus;
    push: PushHub;
    dataDir: string;
    clock?: () => number;
    access: AccessService;
    orders: WorkOrders;
  },
) => {
  const { repo, service } = deps.orders;
  const sites = (request: FastifyRequest) => deps.access.sites(request);
  const user = (request: FastifyRequest) => ({
    id: request.principal?.user_id ?? 0,
    name: request.principal?.user_name ?? '',
  });
  const view = { menu: orders } as const;

  addRoute(app, r.list, async ({ query, request }) => service.list(query, user(request), await sites(request)), {
    permission: view,
  });
  addRoute(app, r.create, async ({ body, request }) => service.create(body, user(request), await sites(request)), {
    permission: { menu: orders, func: 'add' },
    messageKey: 'workOrders.created',
  });
  // The actions are checked against the order's roles and state by the service, not by functions.
  addRoute(app, r.act, async ({ params, body, request }) => service.act(params.id, body, user(request)), {
    permission: view,
    messageKey: 'workOrders.done',
  });
  addRoute(app, r.remove, async ({ params, request }) => service.remove(params.id, user(request)), {
    permission: view,
    messageKey: 'workOrders.deleted',
  });
  addRoute(app, r.info, async ({ query, request }) => service.info(query.id, user(request), await sites(request)), {
    permission: view,
  });
  addRoute(
    app,
    r.ofAlarms,
    async ({ query, request }) =>
      service.ofAlarms([...new Set(query.alarm_ids.split(',').map(Number))], user(request), await sites(request)),
    { permission: view },
  );
  addRoute(app, r.notReceived, async ({ request }) => service.notReceived(user(request)), { permission: view });
  addRoute(app, r.users, async () => (await repo.users()).map((u) => ({ id: u.id, name: u.alias || u.user_name })), {
    permission: view,
  });
  const grant = async (request: FastifyRequest) => {
    const granted = await sites(request);
    return { sites: granted, everySite: await holdsEverySite(deps.db, granted) };
  };
  addRoute(app, r.sets, async ({ request }) => service.sets(await grant(request)), { permission: view });
  addRoute(app, r.putSet, async ({ params, body, request }) => service.putSet(params.id, body, await grant(request)), {
    permission: { menu: orders, func: 'edit' },
    messageKey: 'workOrders.saved',
  });
  const stats = { menu: statisticsMenu } as const;
  addRoute(
    app,
    r.statistics,
    async ({ query, request }) => service.statistics(query, user(request), await sites(request)),
    { permission: stats },
  );
  addRoute(app, r.month, async ({ query, request }) => service.month(query, user(request), await sites(request)), {
    permission: stats,
  });
  addRoute(app, r.time, async ({ query, request }) => service.time(query, user(request), await sites(request)), {
    permission: stats,
  });

  // Automatic dispatch, one alarm at a time in the order raised: the same alarm raised twice at once
  // makes one order (the check and the insert are not raced), and a rule change falls between two
  // alarms. The bus delivers synchronously, so the work is chained and its failure logged.
  let dispatching = Promise.resolve();
  deps.bus.subscribe('alarm.raised', ({ alarm }) => {
    dispatching = dispatching
      .then(() => service.dispatchAlarm(alarm))
      .then(
        () => undefined,
        (err) => app.log.warn({ err }, 'work-order dispatch failed'),
      );
    return dispatching;
  });

  const dir = path.join(deps.dataDir, 'work-orders');
  const upload = async (request: FastifyRequest) => {
    if (!request.isMultipart()) throw badRequest('workOrders.fileMissing');
    let buffer: Buffer | undefined;
    let filename = '';
    let orderId = 0;
    try {
      // Fields before or after the file: read every part, keep the one file.
      for await (const part of request.parts({
        limits: { fileSize: workOrderUploads.maxBytes, files: 1, fields: 5 },
      })) {
        if (part.type === 'field') {
          if (part.fieldname === 'id') orderId = Number(part.value);
        } else if (part.fieldname === 'file') {
          filename = part.filename;
          buffer = await part.toBuffer();
        } else await part.toBuffer();
      }
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE')
        throw badRequest('workOrders.fileTooLarge');
      if (err instanceof AppError) throw err;
      throw badRequest('workOrders.fileMissing');
    }
    if (!buffer) throw badRequest('workOrders.fileMissing');
    const id = z.number().int().min(1).max(2_147_483_647).safeParse(orderId);
    if (!id.success) throw badRequest('workOrders.fileMissing');
    const actor = user(request);
    await service.canAttach(id.data, actor);
    const ext = path.extname(filename).slice(1).toLowerCase();
    const type = sniffAttachment(buffer);
    if (!attachmentExtensions.has(ext) || type === null) throw badRequest('workOrders.notAnImage');
    const file = `${randomBytes(16).toString('hex')}.${type}`;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dir, file), buffer, { mode: 0o600 });
    const created_at = nowSeconds((deps.clock ?? Date.now)());
    const row = {
      order_id: id.data,
      file,
      name: path.basename(filename).slice(0, 200),
      content_type: contentTypes[type],
      size: buffer.length,
      user_id: actor.id,
      created_at,
    };
    const fileId = await repo.addFile(row);
    return {
      id: fileId,
      url: workOrderUploads.filePath.replace(':name', file),
      name: row.name,
      content_type: row.content_type,
      size: row.size,
      created_at,
    };
  };

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: workOrderUploads.maxBytes, files: 1, fields: 5 } });
    scope.route({
      method: 'POST',
      url: workOrderUploads.path,
      config: { requirement: view },
      schema: {
        summary: 'Attach a jpg or png to a received work order (multipart fields id and file)',
        tags: ['work-orders'],
        consumes: ['multipart/form-data'],
        response: { 200: envelope(workOrderFile), '4xx': errorEnvelope },
      },
      preValidation: async (request) => {
        await deps.access.require(request, view);
      },
      handler: async (request) => ({
        code: 0,
        message: sharedText(requestLanguage(request), 'workOrders.uploaded'),
        data: await upload(request),
      }),
    });
  });

  // Public as the site map's images are: an <img> cannot send the bearer token, names are 128-bit random.
  app.route({
    method: 'GET',
    url: workOrderUploads.filePath,
    config: { auth: false },
    schema: {
      summary: 'An attachment of a work order',
      tags: ['work-orders'],
      params: workOrderUploads.fileParams,
      response: { '4xx': errorEnvelope },
    },
    handler: async (request, reply) => {
      const { name } = request.params as { name: string };
      const row = await repo.fileByName(name);
      if (!row) throw notFound('workOrders.fileNotFound');
      let body: Buffer;
      try {
        body = await readFile(path.join(dir, row.file));
      } catch {
        throw notFound('workOrders.fileNotFound');
      }
      return reply
        .header('content-type', row.content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=86400')
        .send(body);
    },
  });
};

/** The orders' store and service, made once: the routes and the action kind (action-kind.ts) share them. */
export const createWorkOrders = (deps: {
  db: Db;
  push: PushHub;
  clock?: (() => number) | undefined;
  duty?: DutyLookup | undefined;
}) => {
  const repo = createWorkOrderRepository(deps.db);
  const service = createWorkOrderService({
    repo,
    clock: deps.clock,
    duty: deps.duty,
    notify: (order, userIds) => deps.push.publish({ type: 'work_order', ...order }, (p) => userIds.includes(p.user_id)),
  });
  return { repo, service };
};
export type WorkOrders = ReturnType<typeof createWorkOrders>;
