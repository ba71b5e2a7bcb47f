import { type ApiTokenRow, tokensRoutes } from '@sitewatch/contract/tokens';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { ApiTokensPage } from './api-tokens-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const secret = `swt_AbCdEfGhIjKl_${'s'.repeat(43)}`;
const row = (id: number, name: string): ApiTokenRow => ({
  id,
  user_id: 2,
  user_name: 'tester',
  name,
  prefix: id === 1 ? 'Prefix111111' : 'AbCdEfGhIjKl',
  read_only: false,
  created_at: 1_767_225_600,
  expires_at: 1_774_915_200,
  last_used_at: null,
  last_used_ip: '',
});
const openDialog = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('no dialog');
    return dialog;
  });

let rows: ApiTokenRow[] = [];
beforeEach(() => {
  resetApi();
  rows = [row(1, 'backup script')];
  answer(tokensRoutes.list, () => ({ total: rows.length, data: rows }));
  answer(tokensRoutes.create, ({ body }) => {
    const created = { ...row(2, String((body as { name: string }).name)), token: secret };
    rows = [row(2, created.name), ...rows];
    return created;
  });
  answer(tokensRoutes.revoke, ({ params }) => {
    rows = rows.filter((r) => r.id !== Number(params?.id));
    return null;
  });
});
afterEach(cleanup);

describe('API tokens page', { timeout: 20_000 }, () => {
  it('lists tokens by prefix only; makes one and shows its secret once; revokes', async () => {
    await renderPage(<ApiTokensPage isAdmin={false} />, { page: '/setting_api_tokens', functions: [] });
    expect(await screen.findByText('backup script')).toBeTruthy();
    expect(screen.getByText('swt_Prefix111111_…')).toBeTruthy();

    fireEvent.click(screen.getByText('新建令牌'));
    const dialog = await openDialog();
    // The dialog's title says it too: the button is the last.
    const submit = () => fireEvent.click(within(dialog).getAllByText('新建令牌').at(-1) as HTMLElement);
    // An empty name: the contract's message, nothing sent.
    submit();
    expect(await within(dialog).findByText(i18n.t('tokens.validation.name'))).toBeTruthy();
    expect(requestsTo(tokensRoutes.create)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: 'energy export' } });
    submit();
    expect(await within(dialog).findByText(secret)).toBeTruthy();
    expect(requestsTo(tokensRoutes.create)[0]?.body).toEqual({
      name: 'energy export',
      expires_in_days: 90,
      read_only: false,
    });
    // A copy button beside the secret, and a curl line that uses it.
    expect(dialog.querySelector('.ant-typography-copy')).toBeTruthy();
    expect(within(dialog).getByText(new RegExp(`Authorization: Bearer ${secret}`))).toBeTruthy();

    fireEvent.click(within(dialog).getByText('我已复制'));
    expect(await screen.findByText('energy export')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(secret)).toBeNull());
    expect(screen.getByText('swt_AbCdEfGhIjKl_…')).toBeTruthy();

    const tokenRow = screen.getByText('backup script').closest('tr') as HTMLElement;
    fireEvent.click(within(tokenRow).getByText(/撤\s*销/));
    fireEvent.click(await screen.findByText(/^(OK|确\s*定)$/));
    await waitFor(() => expect(requestsTo(tokensRoutes.revoke)[0]?.params).toEqual({ id: 1 }));
    await waitFor(() => expect(screen.queryByText('backup script')).toBeNull());
  });
});
