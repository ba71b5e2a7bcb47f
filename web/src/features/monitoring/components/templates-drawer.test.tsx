import { type DeviceTemplateRow, monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { TemplatesDrawer } from './templates-drawer.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const template = (id: number, name: string, device_count: number, builtin: boolean): DeviceTemplateRow => ({
  id,
  name,
  category_code: 'power_meter',
  driver: 'modbus-tcp',
  builtin,
  device_count,
  items: [
    {
      name: 'Voltage',
      item_cell_name: 'ua',
      unit: 'V',
      purpose: '',
      value_type: 1,
      threshold_min: 198,
      threshold_max: 242,
      status_threshold: '',
      telemetry_only: false,
      fault_alarm: true,
      source: {
        kind: 'modbus',
        function: 3,
        register: 0,
        data_type: 'float32',
        byte_order: 'ABCD',
        bit: null,
        scale: 1,
      },
    },
  ],
});

beforeEach(() => {
  resetApi();
  answer(r.listTemplates, () => ({
    total: 2,
    data: [template(4, '电量仪（内置）', 3, true), template(20, '我的电表', 0, false)],
  }));
  answer(r.listCategories, () => ({
    total: 1,
    data: [{ id: 4, code: 'power_meter', name: '电量仪', enable: true, weight: 1 }],
  }));
  answer(r.createTemplate, () => template(21, '电能表', 0, false));
  answer(r.deleteTemplate, () => null);
});
afterEach(cleanup);

const page = '/setting_device_mange';
/** A modal by its title (jsdom gives antd's dialogs no accessible name). */
const dialogTitled = (title: string) =>
  waitFor(() => {
    const found = screen.getAllByRole('dialog').find((d) => d.textContent?.startsWith(title));
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });

it('lists the templates; one devices were made from cannot be deleted, the other can', async () => {
  await renderPage(<TemplatesDrawer open onClose={() => {}} />, { page, functions: ['view', 'add', 'edit', 'delete'] });
  const used = (await screen.findByText('电量仪（内置）')).closest('tr') as HTMLElement;
  expect(within(used).getByText('内置')).toBeTruthy();
  expect(
    within(used)
      .getByRole('button', { name: /删\s*除/ })
      .hasAttribute('disabled'),
  ).toBe(true);
  const mine = screen.getByText('我的电表').closest('tr') as HTMLElement;
  fireEvent.click(within(mine).getByRole('button', { name: /删\s*除/ }));
  fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
  await waitFor(() => expect(requestsTo(r.deleteTemplate)).toHaveLength(1));
  expect(requestsTo(r.deleteTemplate)[0]!.params).toEqual({ id: 20 });
});

it('without the functions the list shows no add, edit or delete', async () => {
  await renderPage(<TemplatesDrawer open onClose={() => {}} />, { page, functions: ['view'] });
  await screen.findByText('我的电表');
  expect(screen.queryByRole('button', { name: '新增模板' })).toBeNull();
  expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
  expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
});

it('adds a template whose telemetry-only point carries no thresholds', async () => {
  await renderPage(<TemplatesDrawer open onClose={() => {}} />, { page, functions: ['view', 'add'] });
  fireEvent.click(await screen.findByRole('button', { name: '新增模板' }));
  const form = await dialogTitled('新增模板');
  fireEvent.change(within(form).getByLabelText('模板名称'), { target: { value: '电能表' } });
  fireEvent.click(within(form).getByRole('button', { name: '新增点位' }));
  const point = await dialogTitled('新增点位');
  fireEvent.change(within(point).getByLabelText('监控项名称'), { target: { value: '正向有功电能' } });
  fireEvent.click(within(point).getByRole('switch', { name: /^仅记录/ }));
  // Its point-fault alarm is on by default; this point has it off.
  const fault = within(point).getByRole('switch', { name: /^测点故障告警/ });
  expect(fault.getAttribute('aria-checked')).toBe('true');
  fireEvent.click(fault);
  await waitFor(() => expect(within(point).queryByLabelText('阈值最小值')).toBeNull());
  fireEvent.click(within(point).getByRole('button', { name: /确\s*定|OK/ }));
  await within(form).findByText('正向有功电能');
  fireEvent.click(within(form).getByRole('button', { name: /确\s*定|OK/ }));
  await waitFor(() => expect(requestsTo(r.createTemplate)).toHaveLength(1));
  expect(requestsTo(r.createTemplate)[0]!.body).toMatchObject({
    name: '电能表',
    driver: 'modbus-tcp',
    items: [
      {
        name: '正向有功电能',
        telemetry_only: true,
        fault_alarm: false,
        threshold_min: null,
        threshold_max: null,
        source: { kind: 'modbus', function: 3, register: 0, data_type: 'uint16' },
      },
    ],
  });
}, 20_000);
