import { sharedText } from '@sitewatch/contract';
import { inspectionRoutes as r } from '@sitewatch/contract/inspection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { conflict } from '../../http/errors.ts';
import { pdfFont, sendPdf, tablePdf } from '../../http/pdf.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx, sheetWorkbook } from '../../http/xlsx.ts';
import type { Scheduler } from '../../schedule/scheduler.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import type { AccessService } from '../access/index.ts';
import { createInspectionRepository } from './repository.ts';
import { createInspectionService, type InspectionLive, type InspectionService, planTask } from './service.ts';

/** /polling_main (menu 721, migration 0017); /polling_record and /polling_main_detail are always allowed pages. */
const menu = 721;

/** 2026-11-23 08:30:00 in the server's zone (the PDF is read by people, not parsed). */
const localTime = (sec: number) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: scheduleZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(sec * 1000));

/** The inspection service over the database, its automatic plans run by `scheduler`. */
export const createInspection = (deps: {
  db: Db;
  live?: InspectionLive | undefined;
  scheduler: Scheduler;
  clock: () => number;
}): InspectionService & { reload(): Promise<void> } => {
  const repo = createInspectionRepository(deps.db, deps.clock);
  const service = createInspectionService({
    repo,
    live: deps.live,
    scheduler: deps.scheduler,
    clock: deps.clock,
  });
  deps.scheduler.on(planTask, (planId) => service.runPlan(planId));
  // After a restore: the cached settings are read again.
  return Object.assign(service, { reload: () => repo.settings.reload() });
};

export const registerInspection = (
  app: FastifyInstance,
  deps: { service: InspectionService; access: AccessService },
) => {
  const { service } = deps;
  const sites = (request: FastifyRequest) => deps.access.sites(request);
  const user = (request: FastifyRequest) => ({
    id: request.principal?.user_id ?? 0,
    name: request.principal?.user_name ?? '',
  });
  const view = { menu } as const;

  // The dashboard's last inspection: every signed-in user who sees the dashboard (000 §2.6).
  addRoute(app, r.last, async ({ request }) => service.last(await sites(request)));
  addRoute(
    app,
    r.snapshot,
    async ({ query, request }) => service.snapshot(query.device_group_ids.split(',').map(Number), await sites(request)),
    { permission: view },
  );
  addRoute(app, r.manual, async ({ body, request }) => service.manual(body, user(request), await sites(request)), {
    permission: { menu, func: 'inspect' },
  });
  // /polling_record and /polling_main_detail are always allowed pages (000 §4.2), but what they show
  // belongs to the inspection page: reports need it, and answer the granted sites' part only.
  addRoute(app, r.reports, async ({ query, request }) => service.reports(query, await sites(request)), {
    permission: view,
  });
  addRoute(app, r.report, async ({ params, request }) => service.report(params.id, await sites(request)), {
    permission: view,
  });
  addRoute(
    app,
    r.review,
    async ({ params, body, request }) => service.review(params.id, body, user(request), await sites(request)),
    { permission: { menu, func: 'review' } },
  );
  addRoute(
    app,
    r.exportReport,
    async ({ params, query, request, reply }) => {
      const lang = requestLanguage(request);
      const report = await service.report(params.id, await sites(request));
      const h = (key: string) => sharedText(lang, `inspection.columns.${key}`);
      const yes = sharedText(lang, 'inspection.abnormal');
      const no = sharedText(lang, 'inspection.normal');
      if (query.format === 'pdf') {
        const font = pdfFont();
        // Without a font that holds Chinese the document would show empty boxes: refused, nothing written.
        if (!font) throw conflict('inspection.noPdfFont');
        const buffer = await tablePdf(
          {
            title: `${sharedText(lang, 'inspection.report')} ${report.id}`,
            meta: [
              [h('inspector'), report.inspector],
              [h('reviewer'), report.reviewer || '-'],
              [h('time'), localTime(report.create_time)],
              [h('status'), sharedText(lang, `inspection.statuses.${report.status}`)],
              [h('summary'), report.summary || '-'],
              ...(report.review_comment ? [[h('reviewComment'), report.review_comment] as [string, string]] : []),
            ],
            columns: [
              { header: h('site'), width: 3 },
              { header: h('device'), width: 3 },
              { header: h('item'), width: 3 },
              { header: h('value'), width: 2 },
              { header: h('result'), width: 1.5 },
              { header: h('note'), width: 3 },
            ],
            rows: report.content.map((i) => [
              i.device_group_name,
              i.device_name,
              i.item_name,
              i.value === null ? '-' : `${i.value}${i.unit ? ` ${i.unit}` : ''}`,
              i.abnormal ? yes : no,
              i.note,
            ]),
          },
          font,
        );
        await sendPdf(reply, `inspection-${report.id}.pdf`, buffer);
        return null;
      }
      const buffer = await sheetWorkbook(
        `${sharedText(lang, 'inspection.report')} ${report.id}`,
        ['site', 'device', 'item', 'value', 'unit', 'result', 'note'].map((c) => ({ header: h(c), width: 18 })),
        [
          ...report.content.map((i) => [
            i.device_group_name,
            i.device_name,
            i.item_name,
            i.value,
            i.unit,
            i.abnormal ? yes : no,
            i.note,
          ]),
          [],
          [h('inspector'), report.inspector],
          [h('reviewer'), report.reviewer],
          [h('time'), new Date(report.create_time * 1000).toISOString()],
          [h('summary'), report.summary],
        ],
      );
      await sendXlsx(reply, `inspection-${report.id}.xlsx`, buffer);
      return null;
    },
    { permission: view },
  );
  const edit = { menu, func: 'edit' } as const;
  addRoute(app, r.plans, async ({ request }) => service.plans(await sites(request)), { permission: view });
  addRoute(app, r.plan, async ({ params, request }) => service.plan(params.id, await sites(request)), {
    permission: view,
  });
  addRoute(app, r.addPlan, async ({ body, request }) => service.addPlan(body, await sites(request)), {
    permission: edit,
  });
  addRoute(
    app,
    r.updatePlan,
    async ({ params, body, request }) => service.updatePlan(params.id, body, await sites(request)),
    { permission: edit },
  );
  addRoute(app, r.deletePlan, async ({ params, request }) => service.deletePlan(params.id, await sites(request)), {
    permission: edit,
  });
  addRoute(app, r.getPatrol, async () => service.settings.patrol(), { permission: view });
  addRoute(
    app,
    r.setPatrol,
    async ({ body }) => service.setPatrol({ enable: body.enable, intelligent_enable: body.intelligent_enable }),
    {
      permission: edit,
    },
  );
  addRoute(app, r.getReportSettings, async () => service.settings.report(), { permission: view });
  addRoute(
    app,
    r.setReportSettings,
    async ({ body }) => service.setReport({ auto_pass_normal: body.auto_pass_normal, keep_days: body.keep_days }),
    { permission: edit },
  );
};
