import { alarmRoutes } from '@sitewatch/contract/alarms';
import { dashboardRoutes } from '@sitewatch/contract/dashboard';
import { electricalSafetyRoutes } from '@sitewatch/contract/electrical-safety';
import { inspectionRoutes } from '@sitewatch/contract/inspection';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { HomePage } from './home-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const size = (used: string, total: string, percent: number) => ({
  total,
  used,
  free: '1.0G',
  percent,
  total_bytes: 2,
  used_bytes: 1,
  free_bytes: 1,
});

beforeEach(() => {
  resetApi();
  answer(monitoringRoutes.statistics, () => ({
    device_groups: 3,
    devices: 12,
    items: 40,
    item_normal: 30,
    item_abnormal: 10,
  }));
  answer(dashboardRoutes.alarmLevelCount, () => ({
    total: 7,
    data: [1, 2, 3, 4, 5].map((level) => ({ level, name: `L${level}`, color: '', count: level === 2 ? 7 : 0 })),
  }));
  answer(dashboardRoutes.alarmCount, () => ({
    total: 1,
    since: 0,
    data: [{ id: 9, name: '温度', alarm_count: 4, device: { name: 'TH-1', DeviceGroups: [{ name: '机房A' }] } }],
  }));
  answer(alarmRoutes.review, () => ({ total: 0, data: [] }));
  answer(dashboardRoutes.systemInfo, () => ({
    cpu: { percent: 12.5, interval_ms: 3000, cores: 2, model: 'x' },
    memory: size('1.0G', '2.0G', 50),
    disk: { ...size('3.0G', '9.0G', 33.33), path: '/data' },
    uptime: 1,
    server_uptime: 1,
    hostname: 'h',
    platform: 'linux',
    server_time: 1,
    alert_service: 'running' as const,
    collection_service: 'running' as const,
    system_serice: 'running' as const,
    notification_service: 'running' as const,
    signal: null,
  }));
  answer(inspectionRoutes.last, () => ({ report: null, enable: true }));
  // No environment device: the curve has nothing to draw, and the page is ready without it.
  answer(dashboardRoutes.environment, () => ({ total: 0, data: [] }));
  // The electrical panel's read never answers: the page does not wait for it.
  answer(electricalSafetyRoutes.overview, () => new Promise<never>(() => {}));
});
afterEach(cleanup);

describe('the home dashboard', { timeout: 30_000 }, () => {
  it('draws each panel from its read and says it is ready once the reads it waits for have answered', async () => {
    await renderPage(
      <MemoryRouter>
        <HomePage />
      </MemoryRouter>,
      { page: '/home', functions: [] },
    );
    expect(await screen.findByTestId('home-ready')).toBeTruthy();
    // 10 of 40 items not normal: 25 %, a high risk.
    expect(screen.getByTestId('home-risk-level').dataset.level).toBe('high');
    expect(within(screen.getByTestId('home-count-devices')).getByText('12')).toBeTruthy();
    expect(within(screen.getByTestId('home-count-item_abnormal')).getByText('10')).toBeTruthy();
    const row = screen.getByTestId('home-ranking-row');
    expect(row.textContent).toContain('机房A / TH-1 / 温度');
    expect(row.textContent).toContain('4');
    expect(within(screen.getByTestId('home-level-2')).getByText('7')).toBeTruthy();
    expect(screen.getByTestId('home-cpu').textContent).toContain('12.50%');
    expect(screen.getByTestId('home-memory').textContent).toContain('1.0G / 2.0G');
    expect(screen.getByTestId('home-signal').textContent).toBe('无数据');
    expect(screen.getByTestId('home-inspection').textContent).toBe('暂无数据');
    expect(screen.getByText('暂无温湿度设备')).toBeTruthy();
    // Inside the shell (no fullShow) the page has no title bar of its own.
    expect(screen.queryByTestId('home-title')).toBeNull();
  });
});
