import {
  type ActionRow,
  type actionBody,
  actionPresets,
  type cronBody,
  type linkageBody,
  automationMessages as m,
} from '@sitewatch/contract/automation';
import type { z } from 'zod';
import type { Kernel } from '../../area.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import type { ActionKind } from './kinds.ts';
import { type AutomationRepository, type StoredAction, toAction } from './repository.ts';
import { cronValid } from './tasks.ts';

type ActionBody = z.output<typeof actionBody>;
type LinkageBody = z.output<typeof linkageBody>;
type CronBody = z.output<typeof cronBody>;

/**
 * The checks of a save (docs/automation.md): the site exists and is granted, every command parses
 * by its kind and passes the kind's own check, a preset's commands are its own, a rule's items and
 * actions are the caller's, a rule never writes what its conditions read (the loop guard), a cron
 * expression parses. They run before anything is stored: a refused save changes nothing.
 */
export const createAutomationChecks = (deps: {
  kernel: Kernel;
  kinds: () => ActionKind[];
  repo: AutomationRepository;
}) => {
  const k = deps.kernel.db.kysely;
  const { repo } = deps;
  const kindOf = (kind: string) => deps.kinds().find((x) => x.kind === kind);

  const siteExists = async (id: number, scope: SiteScope) => {
    const site = await k.selectFrom('device_groups').select('id').where('id', '=', id).executeTakeFirst();
    if (!site) throw badRequest(m.site);
    // Another site's: refused as every write naming a site not granted is (403).
    scope.requireSites([id]);
  };
  const actionOf = async (id: number, scope: SiteScope): Promise<StoredAction> => {
    const row = await repo.action(id);
    if (!row || !scope.has(row.device_group_id)) throw notFound();
    return toAction(row);
  };
  /** An action a rule or task names: it exists, in a granted site; a bad one is the body's fault. */
  const usableAction = async (id: number, scope: SiteScope) => {
    const row = await repo.action(id);
    if (!row || !scope.has(row.device_group_id)) throw badRequest(m.action);
    return toAction(row);
  };

  const describe = async (action: StoredAction): Promise<ActionRow> => ({
    ...action,
    commands: await Promise.all(
      action.commands.map(async (c) => {
        const kind = kindOf(c.kind);
        const description = kind ? await kind.describe(c.params).catch(() => c.kind) : c.kind;
        return { ...c, description };
      }),
    ),
  });

  const checkAction = async (body: ActionBody, scope: SiteScope) => {
    await siteExists(body.device_group_id, scope);
    const allowed: readonly string[] = actionPresets[body.preset];
    for (const [i, c] of body.commands.entries()) {
      const kind = kindOf(c.kind);
      if (!kind) throw badRequest(m.kind, { n: i + 1 });
      const parsed = kind.params.safeParse(c.params);
      if (!parsed.success) throw badRequest(m.params, { n: i + 1 });
      c.params = parsed.data as Record<string, unknown>;
      if (allowed.length > 0 && !allowed.includes(c.command)) throw badRequest(m.presetCommand, { n: i + 1 });
      if (allowed.length === 0) c.command = '';
      const problem = await kind.validate(c.params, { sites: scope.sites });
      if (problem) throw badRequest(problem.key, { n: i + 1, ...(problem.params as Record<string, string>) });
    }
  };

  /** The items an action writes (the loop guard's static part). */
  const writtenItems = (action: StoredAction) =>
    action.commands.flatMap((c) => {
      const kind = kindOf(c.kind);
      try {
        return kind?.writesItems?.(c.params) ?? [];
      } catch {
        return [];
      }
    });

  const checkLinkage = async (body: LinkageBody, scope: SiteScope) => {
    await siteExists(body.device_group_id, scope);
    const itemIds = [...new Set(body.conditions.map((c) => c.item_id))];
    const items = await k
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .select(['items.id', 'devices.device_group_id'])
      .where('items.id', 'in', itemIds)
      .execute();
    if (items.length !== itemIds.length || items.some((i) => !scope.has(i.device_group_id))) throw badRequest(m.item);
    if (body.period_id > 0) {
      const p = await k.selectFrom('time_periods').select('id').where('id', '=', body.period_id).executeTakeFirst();
      if (!p) throw badRequest(m.conditions);
    }
    const actions = [await usableAction(body.action_id, scope)];
    if (body.recovery_action_id > 0) actions.push(await usableAction(body.recovery_action_id, scope));
    // Loop guard: a rule may not write an item its own conditions read.
    const read = new Set(itemIds);
    if (actions.some((a) => writtenItems(a).some((id) => read.has(id)))) throw badRequest(m.loop);
  };

  const checkTask = async (body: CronBody, scope: SiteScope) => {
    await siteExists(body.device_group_id, scope);
    await usableAction(body.action_id, scope);
    if (body.repeat === 'cron' && !cronValid(body.cron)) throw badRequest(m.cron);
    if (body.repeat !== 'cron') body.cron = '';
  };

  return { actionOf, describe, checkAction, checkLinkage, checkTask };
};
