import { type ContactRow, contactInput, notifyRoutes } from '@sitewatch/contract/notify';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../test/fake-api.ts';
import { renderPage } from '../test/render-page.tsx';
import { contractRule } from './form-rules.ts';
import { ResourcePage } from './resource-page.tsx';

vi.mock('../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../api/client.ts')>();
  const { fakeCall: call } = await import('../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const routes = notifyRoutes.contacts;
const contact = (id: number): ContactRow => ({
  id,
  name: `联系人${id}`,
  alias: '',
  email: '',
  phone: '',
  voice_number: '',
  sms_number: '',
  alarm_level: 5,
  time_period_id: 0,
  duty: false,
  enable: true,
});

/** A contacts page on ResourcePage, as an area would declare it. */
const Contacts = () => (
  <ResourcePage<ContactRow>
    page="/setting_contacts"
    title="contacts"
    routes={routes}
    queryKey={['test', 'contacts']}
    pageSize={5}
    columns={[{ title: 'name', dataIndex: 'name' }]}
    filters={() => (
      <Form.Item name="name" label="filter">
        <Input />
      </Form.Item>
    )}
    initial={{ enable: true }}
    toForm={(row) => ({ name: row.name })}
    fromForm={(values) => ({ name: values.name })}
    fields={() => (
      <Form.Item name="name" label="联系人名称" rules={[contractRule(contactInput, { required: true })]}>
        <Input />
      </Form.Item>
    )}
  />
);
const allGrants = ['add', 'edit', 'delete'];
/** The open dialog (found by its role attribute: role queries compute every accessible name, slow in jsdom). */
const openDialog = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('no dialog');
    return dialog;
  });
const ok = /^(OK|确\s*定)$/;

beforeEach(() => {
  resetApi();
  // 12 contacts, answered a page at a time as the server does.
  const rows = Array.from({ length: 12 }, (_, i) => contact(i + 1));
  answer(routes.list, ({ query }) => {
    const page = Number(query?.page ?? 1);
    const limit = Number(query?.limit ?? 20);
    const hits = rows.filter((r) => !query?.name || r.name.includes(String(query.name)));
    return { total: hits.length, data: hits.slice((page - 1) * limit, page * limit) };
  });
  answer(routes.create, ({ body }) => ({ ...contact(13), ...(body as object) }));
  answer(routes.update, ({ params, body }) => ({ ...contact(Number(params?.id)), ...(body as object) }));
  answer(routes.remove, () => null);
});
afterEach(cleanup);

// antd in jsdom takes a second or two a journey, and more on a busy machine.
describe('ResourcePage', { timeout: 20_000 }, () => {
  it('lists the rows of the first page and asks for the next page by the contract query', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: allGrants });
    expect(await screen.findByText('联系人1')).toBeTruthy();
    expect(screen.queryByText('联系人6')).toBeNull();
    expect(requestsTo(routes.list)[0]?.query).toEqual({ page: 1, limit: 5 });
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('联系人6')).toBeTruthy();
    expect(requestsTo(routes.list).at(-1)?.query).toEqual({ page: 2, limit: 5 });
  });

  it('sends the filter as list query fields, back on page 1', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: allGrants });
    await screen.findByText('联系人1');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('联系人6');
    fireEvent.change(screen.getByLabelText('filter'), { target: { value: '联系人1' } });
    fireEvent.click(screen.getByText(/查\s*询/));
    expect(await screen.findByText('联系人12')).toBeTruthy();
    expect(requestsTo(routes.list).at(-1)?.query).toEqual({ page: 1, limit: 5, name: '联系人1' });
  });

  it('adds: an empty name shows the contract message and sends nothing; a name is created', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: allGrants });
    await screen.findByText('联系人1');
    fireEvent.click(screen.getByText(/添\s*加/));
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByText(ok));
    // The message is the contract's own (a locale key the server answers with too).
    expect(await within(dialog).findByText(i18n.t('alarms.validation.name'))).toBeTruthy();
    expect(requestsTo(routes.create)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('联系人名称'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByText(ok));
    await waitFor(() =>
      expect(within(dialog).getAllByText(i18n.t('alarms.validation.name')).length).toBeGreaterThan(0),
    );
    expect(requestsTo(routes.create)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('联系人名称'), { target: { value: '值班员丙' } });
    fireEvent.click(within(dialog).getByText(ok));
    await waitFor(() => expect(requestsTo(routes.create)).toHaveLength(1));
    expect(requestsTo(routes.create)[0]?.body).toMatchObject({ name: '值班员丙' });
    // The list is asked again after the write.
    await waitFor(() => expect(requestsTo(routes.list).length).toBeGreaterThan(1));
  });

  it('edits a row with its values in the form and sends the change to its id', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: allGrants });
    await screen.findByText('联系人3');
    fireEvent.click(within(screen.getByText('联系人3').closest('tr') as HTMLElement).getByText(/编\s*辑/));
    const dialog = await openDialog();
    const name = within(dialog).getByLabelText('联系人名称') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('联系人3'));
    fireEvent.change(name, { target: { value: '联系人三' } });
    fireEvent.click(within(dialog).getByText(ok));
    await waitFor(() => expect(requestsTo(routes.update)).toHaveLength(1));
    expect(requestsTo(routes.update)[0]).toMatchObject({ params: { id: 3 }, body: { name: '联系人三' } });
    // After the dialog closed, another row and a new one start from their own values.
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    fireEvent.click(within(screen.getByText('联系人4').closest('tr') as HTMLElement).getByText(/编\s*辑/));
    const again = await openDialog();
    await waitFor(() => expect((within(again).getByLabelText('联系人名称') as HTMLInputElement).value).toBe('联系人4'));
    fireEvent.click(within(again).getByText(/^(Cancel|取\s*消)$/));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    fireEvent.click(screen.getByText(/添\s*加/));
    const added = await openDialog();
    expect((within(added).getByLabelText('联系人名称') as HTMLInputElement).value).toBe('');
  });

  it('deletes only after the confirmation', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: allGrants });
    await screen.findByText('联系人2');
    fireEvent.click(within(screen.getByText('联系人2').closest('tr') as HTMLElement).getByText(/删\s*除/));
    const confirm = await screen.findByText(i18n.t('common.deleteConfirm'));
    expect(requestsTo(routes.remove)).toHaveLength(0);
    const popup = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByText(ok));
    await waitFor(() => expect(requestsTo(routes.remove)).toHaveLength(1));
    expect(requestsTo(routes.remove)[0]?.params).toEqual({ id: 2 });
  });

  it('shows no write button to a user without the page functions', async () => {
    await renderPage(<Contacts />, { page: '/setting_contacts', functions: [] });
    await screen.findByText('联系人1');
    expect(screen.queryByText(/添\s*加/)).toBeNull();
    expect(screen.queryByText(/编\s*辑/)).toBeNull();
    expect(screen.queryByText(/删\s*除/)).toBeNull();
  });
});
