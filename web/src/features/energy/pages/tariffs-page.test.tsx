import { energyRoutes as r, type TariffRow } from '@sitewatch/contract/energy';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { TariffsPage } from './tariffs-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const page = '/energy_manage/param_config';
const saved = (mode: TariffRow['mode']) => (input: { body?: unknown }) => ({
  ...(input.body as Omit<TariffRow, 'id' | 'mode'>),
  id: 9,
  mode,
});

beforeEach(() => {
  resetApi();
  answer(r.stair.list, () => []);
  answer(r.timeShare.list, () => []);
  answer(r.stairTimeShare.list, () => []);
  answer(r.costSets, () => []);
  answer(monitoringRoutes.listSites, () => ({ total: 0, data: [] }));
  answer(r.stair.create, saved('stair'));
  answer(r.timeShare.create, saved('time_share'));
  answer(r.stairTimeShare.update, saved('stair_time_share'));
});
afterEach(cleanup);

const dialog = () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!found) throw new Error('no dialog');
    return found;
  });
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const ok = (d: HTMLElement) => fireEvent.click(within(d).getByRole('button', { name: /确\s*定|OK/ }));

describe('the tariff editors', { timeout: 40_000 }, () => {
  it('refuse an end below its start and a stair without gradients with the words of 002 §5.1, then send a whole stair', async () => {
    await renderPage(<TariffsPage />, { page, functions: ['view', 'add', 'edit', 'delete'] });
    fireEvent.click(await screen.findByRole('button', { name: '添加电价' }));
    const d = await dialog();
    type(within(d).getByLabelText('电价名称'), '居民阶梯');
    type(within(d).getAllByLabelText('结束值')[0]!, '200');
    type(within(d).getAllByLabelText('电价')[0]!, '0.488');
    fireEvent.click(within(d).getByRole('button', { name: '添加梯度' }));
    // The new gradient starts where the last one ended.
    await waitFor(() => expect((within(d).getAllByLabelText('开始值')[1] as HTMLInputElement).value).toBe('200'));
    type(within(d).getAllByLabelText('结束值')[1]!, '150');
    ok(d);
    // A row's own rule speaks while another field of the tariff is still empty.
    expect(await within(d).findByText('电量的结束值不能小于开始值！')).toBeTruthy();
    expect(within(d).getByText('请填写')).toBeTruthy();

    for (const button of within(d).getAllByRole('button', { name: /删\s*除/ })) fireEvent.click(button);
    ok(d);
    expect(await within(d).findByText('至少需要一个梯度！')).toBeTruthy();
    expect(requestsTo(r.stair.create)).toHaveLength(0);

    fireEvent.click(within(d).getByRole('button', { name: '添加梯度' }));
    await waitFor(() => expect(within(d).getAllByLabelText('结束值')).toHaveLength(1));
    type(within(d).getAllByLabelText('电价')[0]!, '0.488');
    ok(d);
    await waitFor(() => expect(requestsTo(r.stair.create)).toHaveLength(1));
    expect(requestsTo(r.stair.create)[0]!.body).toEqual({
      name: '居民阶梯',
      summer_months: [],
      gradients: [{ season: 'all', start: 0, end: null, price: 0.488 }],
      slots: [],
    });
  });

  it('refuse time slots that leave part of the day uncovered, then send slots covering it once', async () => {
    await renderPage(<TariffsPage />, { page, functions: ['view', 'add', 'edit', 'delete'] });
    fireEvent.click(await screen.findByRole('tab', { name: '分时电价' }));
    fireEvent.click(await screen.findByRole('button', { name: '添加电价' }));
    const d = await dialog();
    expect(within(d).queryByText('梯度')).toBeNull();
    type(within(d).getByLabelText('电价名称'), '工商业分时');
    type(within(d).getAllByLabelText('结束时间')[0]!, '08:00');
    type(within(d).getAllByLabelText('电价')[0]!, '0.3');
    ok(d);
    expect(await within(d).findByText('时段须不重叠地覆盖全天 24 小时')).toBeTruthy();

    fireEvent.click(within(d).getByRole('button', { name: '添加时段' }));
    await waitFor(() => expect((within(d).getAllByLabelText('开始时间')[1] as HTMLInputElement).value).toBe('08:00'));
    type(within(d).getAllByLabelText('结束时间')[1]!, '25:00');
    type(within(d).getAllByLabelText('电价')[1]!, '1.2');
    ok(d);
    expect(await within(d).findByText('时间格式须为 HH:MM')).toBeTruthy();
    type(within(d).getAllByLabelText('结束时间')[1]!, '24:00');
    ok(d);
    await waitFor(() => expect(requestsTo(r.timeShare.create)).toHaveLength(1));
    expect(requestsTo(r.timeShare.create)[0]!.body).toEqual({
      name: '工商业分时',
      summer_months: [],
      gradients: [],
      slots: [
        { season: 'all', start: '00:00', end: '08:00', band: 'flat', price: 0.3 },
        { season: 'all', start: '08:00', end: '24:00', band: 'flat', price: 1.2 },
      ],
    });
  });

  it('open a saved stair + time-share tariff with its seasons, and send it back whole', async () => {
    const summer = { name: '峰谷阶梯', summer_months: [7, 8] };
    const seasonal = ['summer', 'non_summer'] as const;
    answer(r.stairTimeShare.list, () => [
      {
        id: 3,
        mode: 'stair_time_share' as const,
        ...summer,
        gradients: seasonal.map((season) => ({ season, start: 0, end: null, price: 0.1 })),
        slots: seasonal.map((season) => ({ season, start: '00:00', end: '24:00', band: 'flat' as const, price: 0.5 })),
      },
    ]);
    await renderPage(<TariffsPage />, { page, functions: ['view', 'add', 'edit', 'delete'] });
    fireEvent.click(await screen.findByRole('tab', { name: '阶梯分时电价' }));
    const row = (await screen.findByText('峰谷阶梯')).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('7, 8');
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const d = await dialog();
    expect(within(d).getAllByText('夏季').length).toBeGreaterThan(0);
    expect(within(d).getAllByLabelText('结束时间')).toHaveLength(2);
    type(within(d).getAllByLabelText('电价')[1]!, '0.2');
    ok(d);
    await waitFor(() => expect(requestsTo(r.stairTimeShare.update)).toHaveLength(1));
    expect(requestsTo(r.stairTimeShare.update)[0]!.body).toEqual({
      ...summer,
      gradients: [
        { season: 'summer', start: 0, end: null, price: 0.1 },
        { season: 'non_summer', start: 0, end: null, price: 0.2 },
      ],
      slots: seasonal.map((season) => ({ season, start: '00:00', end: '24:00', band: 'flat', price: 0.5 })),
    });
  });
});
