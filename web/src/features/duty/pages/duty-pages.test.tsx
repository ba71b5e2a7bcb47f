import { dutyRoutes } from '@sitewatch/contract/duty';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { ArrangePage } from './arrange-page.tsx';
import { HandoverPage } from './handover-page.tsx';
import { MemoPage } from './memo-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const site = (id: number, name: string) => ({
  id,
  name,
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
});

beforeEach(() => {
  resetApi();
  answer(monitoringRoutes.listSites, () => ({ total: 1, data: [site(7, '北区机房')] }));
});
afterEach(cleanup);

/** Duty rows know their sites (docs/inspection-duty.md, "Duty by site"): the pages show them and offer only what the server allows. */
describe('the duty pages by site', { timeout: 60_000 }, () => {
  it('memos: each shows its site or "only me"; only the editable one can be deleted; a new memo is one’s own note unless a site is chosen', async () => {
    answer(dutyRoutes.memos, () => [
      {
        id: 1,
        date: '2026-11-23',
        content: '我的备忘',
        user_name: 'tester',
        create_time: 0,
        device_group_id: null,
        editable: true,
      },
      {
        id: 2,
        date: '2026-11-23',
        content: '同事的备忘',
        user_name: 'other',
        create_time: 0,
        device_group_id: 7,
        editable: false,
      },
    ]);
    answer(dutyRoutes.addMemo, ({ body }) => ({
      id: 3,
      ...(body as { date: string; content: string }),
      user_name: 'tester',
      create_time: 0,
      device_group_id: null,
      editable: true,
    }));
    await renderPage(<MemoPage />, { page: '/duty_manage/duty_memo', functions: ['edit'], siteIds: [7] });
    const mine = (await screen.findByText('我的备忘')).closest('tr') as HTMLElement;
    const theirs = screen.getByText('同事的备忘').closest('tr') as HTMLElement;
    expect(within(mine).getByText(i18n.t('dutyUi.ownNote'))).toBeTruthy();
    await within(theirs).findByText('北区机房');
    expect(within(mine).queryByText(/删\s*除/)).not.toBeNull();
    expect(within(theirs).queryByText(/删\s*除/)).toBeNull();

    fireEvent.change(screen.getByLabelText(i18n.t('dutyUi.content')), { target: { value: '交接钥匙' } });
    fireEvent.click(screen.getByText(/^添\s*加$/));
    await waitFor(() => expect(requestsTo(dutyRoutes.addMemo)).toHaveLength(1));
    expect(requestsTo(dutyRoutes.addMemo)[0]?.body).toMatchObject({ content: '交接钥匙', device_group_id: null });
  });

  it('arrange: shifts show their site; only editable ones can be removed; a user of some sites must choose a site for a new shift', async () => {
    answer(dutyRoutes.shifts, () => [
      { id: 1, name: '全站白班', start: '08:00', end: '20:00', device_group_id: null, editable: false },
      { id: 2, name: '北区夜班', start: '20:00', end: '08:00', device_group_id: 7, editable: true },
    ]);
    answer(dutyRoutes.members, () => []);
    answer(dutyRoutes.table, () => []);
    answer(dutyRoutes.onDuty, () => []);
    await renderPage(<ArrangePage />, { page: '/duty_manage/duty_arrange', functions: ['edit'], siteIds: [7] });
    const everywhere = await screen.findByText(`全站白班 08:00–20:00 · ${i18n.t('dutyUi.everySite')}`, {
      selector: '.ant-tag *, .ant-tag',
    });
    const ours = await screen.findByText('北区夜班 20:00–08:00 · 北区机房', { selector: '.ant-tag *, .ant-tag' });
    const tagOf = (el: HTMLElement) => el.closest('.ant-tag') as HTMLElement;
    expect(tagOf(everywhere).querySelector('.ant-tag-close-icon')).toBeNull();
    expect(tagOf(ours).querySelector('.ant-tag-close-icon')).not.toBeNull();

    fireEvent.change(screen.getByLabelText(i18n.t('dutyUi.name')), { target: { value: '早班' } });
    fireEvent.change(screen.getByLabelText(i18n.t('dutyUi.start')), { target: { value: '06:00' } });
    fireEvent.change(screen.getByLabelText(i18n.t('dutyUi.end')), { target: { value: '14:00' } });
    fireEvent.click(screen.getAllByText(/^添\s*加$/)[0]!);
    // No site chosen: the form says so and nothing is sent.
    expect(await screen.findByText(i18n.t('dutyUi.site'), { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(requestsTo(dutyRoutes.addShift)).toHaveLength(0);
  });

  it('handover: the switch is for users of every site; records show their site or "only the two of us"', async () => {
    answer(dutyRoutes.handovers, () => [
      {
        id: 1,
        shifter: 'a',
        shifter_id: 3,
        successor: 'tester',
        successor_id: 2,
        events: '私下交接',
        status: 0,
        handover_time: 0,
        confirmed_at: null,
        device_group_id: null,
      },
    ]);
    answer(dutyRoutes.successors, () => []);
    answer(dutyRoutes.getSettings, () => ({ handover_enable: false }));
    await renderPage(<HandoverPage />, { page: '/duty_manage/change_shifts', functions: ['edit'], siteIds: [7] });
    const row = (await screen.findByText('私下交接')).closest('tr') as HTMLElement;
    expect(within(row).getByText(i18n.t('dutyUi.onlyTheTwo'))).toBeTruthy();
    expect(within(row).getByText(i18n.t('dutyUi.confirm'))).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: i18n.t('dutyUi.handoverEnable') });
    expect(toggle.hasAttribute('disabled') || toggle.classList.contains('ant-switch-disabled')).toBe(true);
  });
});
