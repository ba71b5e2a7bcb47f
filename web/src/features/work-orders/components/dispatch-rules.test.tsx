import { alarmRoutes } from '@sitewatch/contract/alarms';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { type WorkOrderSet, workOrderRoutes } from '@sitewatch/contract/work-orders';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { DispatchRules } from './dispatch-rules.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const rule = (id: number, name: string, sites: number[], editable: boolean): WorkOrderSet => ({
  id,
  name,
  enable: true,
  levels: [1],
  device_group_ids: sites,
  handler_id: 2,
  reviewer_id: 2,
  priority: 4,
  deadline_hours: 4,
  require_recovered: false,
  handler_on_duty: false,
  editable,
});

beforeEach(() => {
  resetApi();
  answer(workOrderRoutes.sets, () => [rule(1, '全站规则', [], false), rule(4, '北区规则', [7], true)]);
  answer(workOrderRoutes.users, () => [{ id: 2, name: 'tester' }]);
  answer(workOrderRoutes.putSet, ({ params }) => rule(Number(params?.id), '北区规则', [7], true));
  answer(alarmRoutes.levels, () => ({ total: 0, data: [] }));
  answer(monitoringRoutes.listSites, () => ({
    total: 1,
    data: [
      {
        id: 7,
        name: '北区机房',
        parent_id: 0,
        weight: 1,
        has_device: true,
        longitude: null,
        latitude: null,
        background: '',
        scene: '',
        extend: '',
        devices: [],
        created_at: 0,
        updated_at: 0,
      },
    ],
  }));
});
afterEach(cleanup);

describe('the dispatch rules drawer', { timeout: 60_000 }, () => {
  it('offers edit only on rules the user may change, and saves such a rule under its own number', async () => {
    await renderPage(<DispatchRules open onClose={() => {}} />, {
      page: '/work_order',
      functions: ['edit'],
      siteIds: [7],
    });
    const everywhere = (await screen.findByText('全站规则')).closest('tr') as HTMLElement;
    const ours = screen.getByText('北区规则').closest('tr') as HTMLElement;
    expect(within(everywhere).queryByText(/编\s*辑/)).toBeNull();
    fireEvent.click(within(ours).getByText(/编\s*辑/));
    const dialog = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-modal');
      if (!found) throw new Error('no dialog');
      return found;
    });
    fireEvent.click(within(dialog).getByText(/^(OK|确\s*定)$/));
    await waitFor(() => expect(requestsTo(workOrderRoutes.putSet)).toHaveLength(1));
    expect(requestsTo(workOrderRoutes.putSet)[0]).toMatchObject({ params: { id: 4 }, body: { device_group_ids: [7] } });
  });
});
