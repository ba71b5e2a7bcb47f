import { doorAccessRoutes as r } from '@sitewatch/contract/door-access';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { DoorCardsPage } from './cards-page.tsx';
import { DoorLogCustomPage } from './log-custom-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const controller = {
  id: 3,
  name: '机房A门禁',
  device_group_id: 1,
  brand: 'UHPPOTE',
  model: '',
  protocol: 'wg-udp',
  serial: 423187757,
  address: '127.0.0.1',
  port: 60000,
  online: true,
  last_event_index: 4,
  doors: [
    { id: 11, controller_id: 3, number: 1, nickname: '前门', direction: 'in' },
    { id: 12, controller_id: 3, number: 2, nickname: '', direction: 'both' },
  ],
};
const card = {
  id: 7,
  number: 0x7c0a2b,
  format: 'wiegand26' as const,
  display: '124:2603',
  device_group_id: 1,
  holder: '张伟',
  gender: '',
  department: '运维部',
  job_number: 'A-017',
  valid_from: '2026-01-01',
  valid_to: '2026-12-31',
  has_pin: true,
  doors: [{ door_id: 12, profile: 5 }],
};

beforeEach(() => {
  resetApi();
  answer(r.devices, () => ({ list: [controller] }));
  answer(r.cards, () => ({ list: [card] }));
  answer(r.updateCard, () => null);
  answer(r.logs, () => ({ list: [], total: 0 }));
});
afterEach(cleanup);

describe('door pages', { timeout: 40_000 }, () => {
  it('edits a card without sending its PIN back, keeping the time profile of a door it keeps', async () => {
    await renderPage(<DoorCardsPage />, { page: '/door_cards', functions: ['view', 'edit'] });
    fireEvent.click(await screen.findByRole('button', { name: /^编\s*辑$/ }));
    const d = await screen.findByRole('dialog', { name: '编辑门禁卡' });
    fireEvent.change(within(d).getByLabelText('部门'), { target: { value: '运维二部' } });
    expect(within(d).getByPlaceholderText('不修改（该卡已设密码）')).toBeTruthy();
    fireEvent.click(within(d).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(requestsTo(r.updateCard)).toHaveLength(1));
    const sent = requestsTo(r.updateCard)[0]!;
    expect(sent.params).toEqual({ id: 7 });
    expect(sent.body).toMatchObject({ department: '运维二部', holder: '张伟', doors: [{ door_id: 12, profile: 5 }] });
    expect(sent.body).not.toHaveProperty('pin');
    // Without the add and delete functions, no issue or withdraw button.
    expect(screen.queryByRole('button', { name: '发卡' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^注\s*销$/ })).toBeNull();
  });

  it('searches the log with the filters chosen, and offers export only with the export function', async () => {
    await renderPage(<DoorLogCustomPage />, { page: '/door_log_custom', functions: ['view'] });
    await waitFor(() => expect(requestsTo(r.logs)).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /^导\s*出$/ })).toBeNull();
    fireEvent.change(screen.getByLabelText('人员或卡号'), { target: { value: '  张伟 ' } });
    fireEvent.click(screen.getByRole('button', { name: /^查\s*询$/ }));
    await waitFor(() => expect(requestsTo(r.logs).at(-1)?.query).toMatchObject({ person: '张伟', page: 1 }));
    cleanup();
    await renderPage(<DoorLogCustomPage />, { page: '/door_log_custom', functions: ['view', 'export'] });
    expect(await screen.findByRole('button', { name: /^导\s*出$/ })).toBeTruthy();
  });
});
