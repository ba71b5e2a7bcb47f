import { type AutoLoginPeriod, authRoutes, autoLoginPeriods, type LoginAnswer } from '@sitewatch/contract/auth';
import { ldapRoutes } from '@sitewatch/contract/ldap';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Flex, Input, type InputRef, Segmented, theme } from 'antd';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../../api/client.ts';
import { deviceTokenKey, signOutNoticeKey, signOutReasonKey, storeToken } from '../../../api/tokens.ts';
import { BrandLogo } from '../../../components/brand-logo.tsx';
import { DeferredSelect } from '../../../components/deferred-select.tsx';
import { LanguagePicker, ThemePicker } from '../../../components/preference-pickers.tsx';
import { useEdition } from '../../../session/edition.ts';
import { languageSyncKey } from '../../../session/session.ts';
import { encryptAll, loginParamsQuery, newCaptchaId } from '../api.ts';
import { CaptchaImage } from '../components/captcha.tsx';
import { EditionBlocks } from '../components/edition-blocks.tsx';
import type { ForcedScene } from '../components/forced-password-dialog.tsx';
import { useAutoLogin, useEnterSubmits, useSignedInGoesOn, withPrompt } from '../use-login.ts';

// Loaded only when a password must change, so the login page does not carry Modal and Form.
const ForcedPasswordDialog = lazy(() =>
  import('../components/forced-password-dialog.tsx').then((m) => ({ default: m.ForcedPasswordDialog })),
);

/** A labelled field laid out like antd's vertical form, without its Form machinery (login page weight). */
const Field = ({ id, label, children }: { id: string; label: string; children: ReactNode }) => (
  <div style={{ marginBottom: 24 }}>
    <label htmlFor={id} style={{ display: 'block', paddingBottom: 8 }}>
      {label}
    </label>
    {children}
  </div>
);

interface Values {
  user_name: string;
  password: string;
  captcha_code: string;
}

/** Delay before leaving for the home route after a successful login. */
const afterLoginMs = 300;

/**
 * The login page (000 §2.1). It is the first thing every browser downloads, so it uses plain
 * elements styled with the theme's tokens where antd's components would bring large modules
 * (Card → Tabs, Form, Typography → Tooltip); bench/web.ts keeps its JavaScript under 350 KB gzipped.
 */
export const LoginPage = () => {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ user_name: '', password: '', captcha_code: '' });
  const setValue = (name: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));
  const queryClient = useQueryClient();
  const params = useQuery(loginParamsQuery);
  const captchaOn = params.data?.captcha_enabled ?? false;
  // LDAP accounts log in through POST pub/login/ldap (docs/ldap.md); offered only when LDAP is on.
  const [ldapChosen, setLdapChosen] = useState(false);
  const viaLdap = ldapChosen && (params.data?.ldap_enabled ?? false);
  const [captchaId, setCaptchaId] = useState<string | null>(null);
  // A sign-out on purpose (a configuration restore) is told as such, not as a lost session.
  const [notice] = useState(() => sessionStorage.getItem(signOutNoticeKey));
  const [error, setError] = useState<string | null>(() => (notice ? null : sessionStorage.getItem(signOutReasonKey)));
  const [remember, setRemember] = useState(false);
  const [period, setPeriod] = useState<AutoLoginPeriod>(2);
  const [busy, setBusy] = useState(false);
  const [forced, setForced] = useState<{ scene: ForcedScene; userName: string } | null>(null);
  const userRef = useRef<InputRef>(null);
  const passwordRef = useRef<InputRef>(null);
  const captchaRef = useRef<InputRef>(null);
  const edition = useEdition();

  const refreshCaptcha = useCallback(() => {
    setValues((v) => ({ ...v, captcha_code: '' }));
    void newCaptchaId()
      .then(setCaptchaId)
      .catch(() => setCaptchaId(null));
  }, []);

  useEffect(() => {
    if (captchaOn) refreshCaptcha();
  }, [captchaOn, refreshCaptcha]);

  const enter = useCallback(
    (answer: LoginAnswer, remembered: boolean, serverMessage?: string) => {
      storeToken(answer.access_token, answer.user_name, remembered);
      sessionStorage.removeItem(signOutReasonKey);
      sessionStorage.removeItem(signOutNoticeKey);
      sessionStorage.setItem(languageSyncKey, '1');
      if (answer.device_token) localStorage.setItem(deviceTokenKey, answer.device_token);
      void message.success(serverMessage || t('auth.loginSuccess'));
      if (answer.need_tip_change_pwd && answer.pwd_days_left !== null) {
        void message.warning(t('login.expirySoon', { days: answer.pwd_days_left }));
      }
      setTimeout(() => navigate('/', { replace: true }), afterLoginMs);
    },
    [navigate, t, message.warning, message.success],
  );

  useSignedInGoesOn();
  const autoLoginFailed = useCallback(
    (text: string, refused: boolean) => {
      setError(text);
      if (refused && captchaOn) refreshCaptcha();
    },
    [captchaOn, refreshCaptcha],
  );
  useAutoLogin(enter, autoLoginFailed);

  const submit = useCallback(async () => {
    const missing = [
      [values.user_name, userRef, 'login.userRequired'],
      [values.password, passwordRef, 'login.passwordRequired'],
      ...(captchaOn ? [[values.captcha_code, captchaRef, 'login.captchaRequired'] as const] : []),
    ] as const;
    const firstEmpty = missing.find(([value]) => !value?.trim());
    if (firstEmpty) {
      setError(t(firstEmpty[2]));
      firstEmpty[1].current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    // Why the last session ended stays on the page (through reloads) until the next attempt.
    sessionStorage.removeItem(signOutReasonKey);
    try {
      // A click before the login parameters (the server's public key) have arrived waits for them:
      // on a slow network or a busy server it did nothing at all, and the person was left waiting.
      const loginParams = params.data ?? (await queryClient.fetchQuery(loginParamsQuery));
      if (loginParams.captcha_enabled && !captchaOn) {
        // The captcha field appears with the parameters: it has to be filled first.
        setError(t('login.captchaRequired'));
        return;
      }
      const [userEnc, passwordEnc] = await encryptAll(loginParams.public_key, [
        values.user_name.trim(),
        values.password,
      ]);
      const credentials = {
        user_name: userEnc ?? '',
        password: passwordEnc ?? '',
        captcha_id: captchaId ?? '',
        captcha_code: values.captcha_code ?? '',
        remember,
      };
      const answer = viaLdap
        ? await api.call(ldapRoutes.login, { body: credentials })
        : await api.call(authRoutes.login, {
            body: { ...credentials, auto_login_period: remember ? period : null },
          });
      if (!answer.access_token) {
        if (answer.pwd_is_alterable && answer.change_pwd_scene) {
          setForced({ scene: answer.change_pwd_scene as ForcedScene, userName: answer.user_name });
        } else {
          setError(t('login.failed'));
        }
        if (captchaOn) refreshCaptcha();
        return;
      }
      enter(answer, remember);
    } catch (err) {
      setError(
        withPrompt(err instanceof ApiError && err.message ? err.message : t('login.failed'), t('login.writeAgain')),
      );
      if (captchaOn) refreshCaptcha();
    } finally {
      setBusy(false);
    }
  }, [values, captchaOn, params.data, queryClient, captchaId, remember, period, viaLdap, enter, refreshCaptcha, t]);

  useEnterSubmits(submit, forced !== null || busy);

  return (
    <Flex
      vertical
      align="center"
      justify="center"
      style={{
        minHeight: '100vh',
        background: `linear-gradient(135deg, ${token.colorPrimaryBg}, ${token.colorBgLayout})`,
      }}
    >
      <Flex gap={8} style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguagePicker />
        <ThemePicker />
      </Flex>
      {/* A plain panel rather than antd's Card, which brings Tabs, Dropdown and Menu to the login page. */}
      <div
        style={{
          width: 400,
          padding: 32,
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          border: `1px solid ${token.colorBorderSecondary}`,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          <BrandLogo kind="login" maxHeight={76} fallbackSize={48} />
          {edition.sys_show && (
            <h1
              data-testid="login-sys-name"
              style={{ margin: 0, fontSize: token.fontSizeHeading3, fontWeight: 600, color: token.colorTextHeading }}
            >
              {edition.sys_name || t('app.name')}
            </h1>
          )}
        </Flex>
        <form onSubmit={(e) => e.preventDefault()}>
          {params.data?.ldap_enabled && (
            <Segmented
              block
              style={{ marginBottom: 16 }}
              value={viaLdap ? 'ldap' : 'local'}
              onChange={(value) => setLdapChosen(value === 'ldap')}
              options={[
                { value: 'local', label: t('ldap.loginType.local') },
                { value: 'ldap', label: t('ldap.loginType.ldap') },
              ]}
            />
          )}
          <Field id="login_user_name" label={t('login.userName')}>
            <Input
              id="login_user_name"
              ref={userRef}
              autoComplete="username"
              autoFocus
              disabled={busy}
              value={values.user_name}
              onChange={setValue('user_name')}
            />
          </Field>
          <Field id="login_password" label={t('login.password')}>
            <Input.Password
              id="login_password"
              ref={passwordRef}
              autoComplete="current-password"
              disabled={busy}
              value={values.password}
              onChange={setValue('password')}
            />
          </Field>
          {captchaOn && (
            <Field id="login_captcha_code" label={t('login.captcha')}>
              <Flex gap={8} align="center">
                <Input
                  id="login_captcha_code"
                  ref={captchaRef}
                  autoComplete="off"
                  maxLength={8}
                  disabled={busy}
                  value={values.captcha_code}
                  onChange={setValue('captcha_code')}
                />
                <CaptchaImage id={captchaId} onRefresh={refreshCaptcha} />
              </Flex>
            </Field>
          )}
          {notice === 'restored' && !error && <Alert type="success" showIcon message={t('login.restored')} />}
          <div role="alert" data-testid="login-error" style={{ minHeight: 22, color: token.colorError }}>
            {error}
          </div>
          <Flex align="center" justify="space-between" gap={8} style={{ margin: '8px 0 16px' }}>
            <Checkbox checked={remember} disabled={busy} onChange={(e) => setRemember(e.target.checked)}>
              {t('login.remember')}
            </Checkbox>
            <DeferredSelect<AutoLoginPeriod>
              size="small"
              aria-label={t('login.period')}
              disabled={busy || !remember || viaLdap}
              value={period}
              onChange={setPeriod}
              style={{ width: 130 }}
              options={autoLoginPeriods.map((p) => ({ value: p, label: t(`login.periods.${p}`) }))}
            />
          </Flex>
          <Button type="primary" block size="large" loading={busy} onClick={() => void submit()}>
            {t('login.submit')}
          </Button>
          {/* The product information and activation dialog (000 §2.1): the app opens it on this hash. */}
          <Flex justify="flex-end" gap={16} style={{ marginTop: 12 }}>
            {edition.support_show && <a href="#support">{t('login.support')}</a>}
            <a href="#type=active">{t('login.productInfo')}</a>
          </Flex>
          <Flex justify="flex-end" style={{ marginTop: 4 }}>
            <a href="#type=recovery" style={{ fontSize: token.fontSizeSM, color: token.colorTextTertiary }}>
              {t('login.recovery')}
            </a>
          </Flex>
        </form>
      </div>
      <EditionBlocks />
      {forced && (
        <Suspense fallback={null}>
          <ForcedPasswordDialog
            open
            scene={forced.scene}
            userName={forced.userName}
            onCancel={() => setForced(null)}
            onDone={() => {
              setForced(null);
              setValues((v) => ({ ...v, password: '' }));
              setError(null);
              passwordRef.current?.focus();
            }}
          />
        </Suspense>
      )}
    </Flex>
  );
};
