import { doorAccessRoutes as r } from '@sitewatch/contract/door-access';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { DoorNoticeConfigPage } from './notice-config-page.tsx';
import { DoorSettingPage } from './setting-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

beforeEach(() => {
  resetApi();
  answer(r.notices, () => ({
    list: [
      { kind: 'forced' as const, enabled: true, contact_group_id: 4, contact_group_name: '安保组' },
      { kind: 'held' as const, enabled: true, contact_group_id: 0, contact_group_name: '' },
      { kind: 'invalid' as const, enabled: false, contact_group_id: 0, contact_group_name: '' },
      { kind: 'offline' as const, enabled: true, contact_group_id: 0, contact_group_name: '' },
    ],
  }));
  answer(r.contacts, () => ({
    list: [
      {
        id: 4,
        name: '安保组',
        contacts: 2,
        channels: [
          { kind: 'email', name: '' },
          { kind: 'webhook', name: '值班机器人' },
        ],
      },
    ],
  }));
  answer(r.toggle, () => null);
  answer(r.options, () => ({ sync_seconds: 60, held_open_seconds: 0, listener: '0.0.0.0:60001' }));
  answer(r.setOptions, () => null);
});
afterEach(cleanup);

describe('door notice and setting pages', { timeout: 40_000 }, () => {
  it('shows each kind with its group and channels, and switches a kind with the edit function', async () => {
    await renderPage(<DoorNoticeConfigPage />, { page: '/door_notice_config', functions: ['view', 'edit'] });
    const forced = (await screen.findByText('强行开门')).closest('tr')!;
    expect(within(forced).getByText('联系人：2')).toBeTruthy();
    expect(within(forced).getByText('邮件')).toBeTruthy();
    expect(within(forced).getByText('值班机器人')).toBeTruthy();
    const invalid = screen.getByText('无效卡（刷卡被拒）').closest('tr')!;
    fireEvent.click(within(invalid).getByRole('switch'));
    await waitFor(() => expect(requestsTo(r.toggle)).toHaveLength(1));
    expect(requestsTo(r.toggle)[0]!.body).toEqual({ kind: 'invalid', enabled: true });
    cleanup();
    // View only: nothing to switch.
    await renderPage(<DoorNoticeConfigPage />, { page: '/door_notice_config', functions: ['view'] });
    await screen.findByText('强行开门');
    for (const s of screen.getAllByRole('switch')) expect(s.hasAttribute('disabled')).toBe(true);
  });

  it('saves the options and shows the listener as set at start', async () => {
    await renderPage(<DoorSettingPage />, { page: '/door_setting', functions: ['view', 'edit'] });
    expect(await screen.findByText('监听 0.0.0.0:60001，控制器把事件推送到这里')).toBeTruthy();
    const held = screen.getByLabelText('开门超时（秒）');
    await waitFor(() => expect((screen.getByLabelText('日志同步间隔（秒）') as HTMLInputElement).value).toBe('60'));
    fireEvent.change(held, { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(requestsTo(r.setOptions)).toHaveLength(1));
    expect(requestsTo(r.setOptions)[0]!.body).toEqual({ sync_seconds: 60, held_open_seconds: 90 });
    cleanup();
    await renderPage(<DoorSettingPage />, { page: '/door_setting', functions: ['view'] });
    await screen.findByText('监听 0.0.0.0:60001，控制器把事件推送到这里');
    expect(screen.queryByRole('button', { name: /^保\s*存$/ })).toBeNull();
  });
});
