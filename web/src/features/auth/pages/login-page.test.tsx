import { generateKeyPairSync } from 'node:crypto';
import { authRoutes } from '@sitewatch/contract/auth';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { LoginPage } from './login-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const params = (captcha_enabled: boolean) => ({
  public_key: publicKey,
  algorithm: 'RSA-OAEP-256' as const,
  captcha_enabled,
  ldap_enabled: false,
});
const refused = {
  access_token: '',
  need_tip_change_pwd: false,
  change_pwd_scene: 0,
  pwd_complexity_error: [],
  pwd_expired: false,
  pwd_is_alterable: false,
  pwd_days_left: null,
  user_name: 'admin',
  device_token: null,
};

/** The login parameters answer only when the test lets them (a slow network, a busy server). */
let arrive: () => void = () => {};
const paramsLater = (captcha: boolean) =>
  answer(authRoutes.loginParams, () => new Promise((resolve) => (arrive = () => resolve(params(captcha)))));

beforeEach(() => {
  resetApi();
  answer(authRoutes.login, () => refused);
  answer(authRoutes.captchaId, () => ({ captcha_id: 'c1' }));
});
afterEach(cleanup);

const fillAndClick = async () => {
  await renderPage(
    <MemoryRouter>
      <LoginPage />
    </MemoryRouter>,
    { page: '/login', functions: [] },
  );
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByLabelText(/^密码$/), { target: { value: 'Some-Pass-1' } });
  fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
};

describe('login page', { timeout: 20_000 }, () => {
  it('a click before the login parameters arrive waits for them and then signs in', async () => {
    paramsLater(false);
    await fillAndClick();
    expect(requestsTo(authRoutes.login)).toHaveLength(0);
    arrive();
    await waitFor(() => expect(requestsTo(authRoutes.login)).toHaveLength(1));
    const body = requestsTo(authRoutes.login)[0]?.body as { user_name: string; password: string };
    // Encrypted with the key that arrived, never sent as typed.
    expect(body.user_name).not.toBe('admin');
    expect(body.password.length).toBeGreaterThan(100);
    expect(await screen.findByText(i18n.t('login.failed'), { exact: false })).toBeTruthy();
  });

  it('when the parameters turn out to ask for a captcha, asks for it and sends nothing', async () => {
    paramsLater(true);
    await fillAndClick();
    arrive();
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe(i18n.t('login.captchaRequired')));
    expect(requestsTo(authRoutes.login)).toHaveLength(0);
  });
});
