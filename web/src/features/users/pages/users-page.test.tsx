import { authRoutes } from '@sitewatch/contract/auth';
import { type UserRow, usersRoutes } from '@sitewatch/contract/users';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { UsersPage } from './users-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const user = (id: number, name: string): UserRow => ({
  id,
  user_name: name,
  alias: '',
  email: '',
  phone: '',
  enable: true,
  login_type: 0,
  locked: false,
  role_ids: [2],
  user_group_ids: [1],
  created_at: 1_700_000_000,
});

beforeEach(() => {
  resetApi();
  answer(usersRoutes.list, ({ query }) => {
    const rows = [user(1, 'admin'), user(2, 'duty1')].filter((u) => !query?.name || u.user_name === query.name);
    return { total: rows.length, data: rows };
  });
  answer(usersRoutes.roles, () => ({ total: 1, data: [{ id: 2, name: 'Duty viewers', remark: '', user_count: 1 }] }));
  answer(usersRoutes.groups, () => ({
    total: 1,
    data: [{ id: 1, name: 'default', parent_id: 0, remark: '', user_count: 2 }],
  }));
  answer(usersRoutes.update, () => null);
  // The page encrypts a typed password with the server's key; these journeys type none.
  answer(authRoutes.loginParams, () => ({
    public_key: '',
    algorithm: 'RSA-OAEP-256' as const,
    captcha_enabled: false,
    ldap_enabled: false,
  }));
});
afterEach(cleanup);

const dialog = () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!found) throw new Error('no dialog');
    return found;
  });

// antd in jsdom takes a second or two a journey, and more on a busy machine.
describe('the users page on ResourcePage', { timeout: 20_000 }, () => {
  it('searches by name through the list query', async () => {
    await renderPage(<UsersPage />, { page: '/setting_users', functions: ['add', 'edit', 'delete'], userId: 1 });
    await screen.findByText('duty1');
    expect(requestsTo(usersRoutes.list)[0]?.query).toEqual({ page: 1, limit: 10 });
    const search = screen.getByPlaceholderText(i18n.t('userPages.searchName'));
    fireEvent.change(search, { target: { value: ' duty1 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(requestsTo(usersRoutes.list).at(-1)?.query).toEqual({ page: 1, limit: 10, name: 'duty1' }),
    );
    await waitFor(() => expect(screen.queryByText('admin')).toBeNull());
  });

  it('edits a user: a bad e-mail is refused by the contract rule, a good one is sent as the contract body', async () => {
    await renderPage(<UsersPage />, { page: '/setting_users', functions: ['add', 'edit', 'delete'], userId: 1 });
    const row = (await screen.findByText('duty1')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByText(/编\s*辑/));
    const form = await dialog();
    const email = within(form).getByLabelText(i18n.t('userPages.email')) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'bad-address' } });
    fireEvent.click(within(form).getByText(/^(OK|确\s*定)$/));
    expect(await within(form).findByText(i18n.t('userPages.emailInvalid'))).toBeTruthy();
    expect(requestsTo(usersRoutes.update)).toHaveLength(0);
    fireEvent.change(email, { target: { value: 'duty1@example.com' } });
    fireEvent.click(within(form).getByText(/^(OK|确\s*定)$/));
    await waitFor(() => expect(requestsTo(usersRoutes.update)).toHaveLength(1));
    // No password typed: none is sent (the server keeps the old one).
    expect(requestsTo(usersRoutes.update)[0]).toEqual({
      route: 'PUT setting/users/:id',
      params: { id: 2 },
      query: undefined,
      body: { alias: '', email: 'duty1@example.com', phone: '', enable: true, role_ids: [2], user_group_ids: [1] },
    });
  });

  it('shows no add, edit or delete to a user with the page but none of its functions', async () => {
    await renderPage(<UsersPage />, { page: '/setting_users', functions: [], userId: 1 });
    await screen.findByText('duty1');
    expect(screen.queryByText(/添\s*加/)).toBeNull();
    expect(screen.queryByText(/编\s*辑/)).toBeNull();
    expect(screen.queryByText(/删\s*除/)).toBeNull();
  });
});
