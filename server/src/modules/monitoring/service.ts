import { createMonitoringContext, type MonitoringDeps } from './context.ts';
import { createDeviceService } from './device-service.ts';
import { createItemService } from './item-service.ts';
import { createSiteService } from './site-service.ts';
import { createTemplateService } from './template-service.ts';
import { createViewService } from './view-service.ts';

export type { LiveSource, MonitoringDeps } from './context.ts';
export { sourceKindOf } from './context.ts';

/** The monitoring area's service: one object over sub-services cut by sub-area, sharing one context. */
export const createMonitoringService = (deps: MonitoringDeps) => {
  const ctx = createMonitoringContext(deps);
  return {
    ...createSiteService(ctx),
    ...createDeviceService(ctx),
    ...createTemplateService(ctx),
    ...createItemService(ctx),
    ...createViewService(ctx),
  };
};

export type MonitoringService = ReturnType<typeof createMonitoringService>;
