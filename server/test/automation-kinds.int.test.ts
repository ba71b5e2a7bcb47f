import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineArea } from '../src/area.ts';
import type { ActionKind } from '../src/modules/automation/area.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/**
 * Action kinds are a plug-in family (docs/automation.md, "Action kinds"): a kind another area
 * contributes is offered by setting/action_kinds, validated, described, run and dry-run through
 * the automation area without that area naming it.
 */
const rang: Array<{ bell: string; dry: boolean }> = [];
const bell: ActionKind = {
  kind: 'test.bell',
  nameKey: 'automation.kinds.notifyGroup',
  fields: [{ key: 'message', type: 'text', required: true }],
  writesDevice: false,
  params: z.object({ message: z.string().min(1) }),
  validate: async (raw) =>
    (raw as { message: string }).message === 'refuse' ? { key: 'automation.validation.params' } : null,
  describe: async (raw) => `bell: ${(raw as { message: string }).message}`,
  run: async (raw) => {
    rang.push({ bell: (raw as { message: string }).message, dry: false });
    return { ok: true, detail: 'rang' };
  },
  dryRun: async () => ({ ok: true, detail: 'would ring' }),
};
const bellArea = defineArea({
  name: 'test-bell',
  create: () => ({ contributes: { actionKinds: [bell] } }),
});

describeEachDatabase('automation kinds', (dialect) => {
  const t = useTestApp(dialect, { extraAreas: [bellArea] });
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, status = 200) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };

  it('offers, validates, runs and dry-runs a kind another area contributes', async () => {
    const kinds = (await call('GET', 'setting/action_kinds')).data as Array<{ kind: string; fields: unknown[] }>;
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['item.write', 'notify.group', 'test.bell']));
    const site = (await call('POST', 'setting/device_groups', { name: '铃声机房', weight: 1 })).data.id;
    const body = {
      name: '响铃',
      device_group_id: site,
      commands: [{ kind: 'test.bell', params: { message: 'ding' } }],
    };
    await call(
      'POST',
      'setting/actions',
      { ...body, commands: [{ kind: 'test.bell', params: { message: 'refuse' } }] },
      400,
    );
    await call('POST', 'setting/actions', { ...body, commands: [{ kind: 'test.bell', params: {} }] }, 400);
    const action = (await call('POST', 'setting/actions', body)).data;
    expect(action.commands[0]).toMatchObject({ kind: 'test.bell', description: 'bell: ding' });

    const dry = (await call('POST', 'pub/remote_control', { action_id: action.id, dry_run: true })).data;
    expect(dry.results).toEqual([{ kind: 'test.bell', description: 'bell: ding', ok: true, detail: 'would ring' }]);
    expect(rang).toEqual([]);
    const run = (await call('POST', 'pub/remote_control', { action_id: action.id })).data;
    expect(run).toMatchObject({ ok: true, dry_run: false, trigger: 'manual' });
    expect(rang).toEqual([{ bell: 'ding', dry: false }]);
    const runs = (await call('GET', `setting/motion_management/${action.id}`)).data;
    expect(runs.total).toBe(2);
    rang.length = 0;
  });
});
