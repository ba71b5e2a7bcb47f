import { type DeviceRow, deviceOptions, monitoringRoutes as r, serialSettings } from '@sitewatch/contract/monitoring';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { DeviceManagePage } from './device-manage-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

/** An SNMP v2c device whose community is kept on the server: answered as '' with community_set. */
const agent: DeviceRow = {
  id: 7,
  name: 'UPS-SNMP',
  device_group_id: 1,
  device_group_name: 'Room',
  driver: 'snmp',
  code: 'ups',
  category_id: 1,
  template_id: null,
  ip: '192.0.2.60',
  port: 161,
  protocol_id: 1,
  classification_id: 0,
  device_count: 1,
  serial: serialSettings.parse({}),
  zigbee_enable: false,
  zigbee_address: '',
  protocol_version: 'v2c',
  options: {
    ...deviceOptions.parse({}),
    community: '',
    community_set: true,
    mqtt_password_set: false,
    v3_auth_key_set: false,
    v3_priv_key_set: false,
  },
  check_interval: 10,
  enable: true,
  state: 1,
  state_reason: '',
  state_time: 0,
  item_count: 0,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_000,
};

beforeEach(() => {
  resetApi();
  answer(r.listDevices, () => ({ total: 1, data: [agent] }));
  answer(r.listSites, () => ({
    total: 1,
    data: [
      {
        id: 1,
        name: 'Room',
        parent_id: 0,
        weight: 1,
        has_device: true,
        longitude: null,
        latitude: null,
        background: '',
        scene: '',
        extend: '',
        devices: [{ id: 7, category_id: 1 }],
        created_at: 0,
        updated_at: 0,
      },
    ],
  }));
  answer(r.listCategories, () => ({ total: 1, data: [{ id: 1, code: 'ups', name: 'UPS', enable: true, weight: 1 }] }));
  answer(r.listTemplates, () => ({ total: 0, data: [] }));
  answer(r.listSerialPorts, () => []);
  answer(r.updateDevice, () => agent);
});
afterEach(cleanup);

const dialog = () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!found) throw new Error('no dialog');
    return found;
  });

// antd in jsdom takes a second or two a dialog, and more on a busy machine (two dialogs here).
describe('the device form and the SNMP community', { timeout: 60_000 }, () => {
  it('shows a kept community as set, sends it empty to keep it, and sends a typed one', async () => {
    await renderPage(<DeviceManagePage />, { page: '/setting_device_mange', functions: ['add', 'edit'], userId: 1 });
    const row = (await screen.findByText('UPS-SNMP')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByText(/编\s*辑/));
    const form = await dialog();
    const community = within(form).getByLabelText(i18n.t('monitoringUi.devices.community')) as HTMLInputElement;
    // A password box, empty: the community never comes back to the browser.
    expect(community.type).toBe('password');
    expect(community.value).toBe('');
    expect(within(form).getByText(i18n.t('monitoringUi.devices.secretSet'))).toBeTruthy();
    fireEvent.click(within(form).getByText(/^(OK|确\s*定)$/));
    await waitFor(() => expect(requestsTo(r.updateDevice)).toHaveLength(1));
    expect(requestsTo(r.updateDevice)[0]?.body).toMatchObject({ options: { community: '' } });

    fireEvent.click(within(row).getByText(/编\s*辑/));
    const again = await dialog();
    fireEvent.change(within(again).getByLabelText(i18n.t('monitoringUi.devices.community')), {
      target: { value: 'n0t-public' },
    });
    fireEvent.click(within(again).getByText(/^(OK|确\s*定)$/));
    await waitFor(() => expect(requestsTo(r.updateDevice)).toHaveLength(2));
    expect(requestsTo(r.updateDevice)[1]?.body).toMatchObject({ options: { community: 'n0t-public' } });
  });
});
