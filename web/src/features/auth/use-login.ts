import { authRoutes, type LoginAnswer } from '@sitewatch/contract/auth';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../api/client.ts';
import { deviceTokenKey, readToken } from '../../api/tokens.ts';

/** 000 §2.1, §8: auto-login retries 3 times 300 ms apart when the network fails. */
const autoLoginTries = 3;
const autoLoginRetryMs = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server's message, then the prompt to write again (000 §3): its own closing mark goes, so that
 * "用户名或密码错误！" reads "用户名或密码错误，请重新输入！", not "…！，请…".
 */
export const withPrompt = (text: string, prompt: string) => `${text.replace(/[！!。.]+$/u, '')}${prompt}`;

/** Opening /login while signed in goes on to the console instead of showing the form again. */
export const useSignedInGoesOn = () => {
  const navigate = useNavigate();
  useEffect(() => {
    if (!readToken()) return;
    void api.call(authRoutes.currentUser).then(
      () => navigate('/', { replace: true }),
      () => undefined,
    );
  }, [navigate]);
};

/**
 * Auto-login with this browser's device token, when there is one (000 §2.1, §8); once per visit. A
 * refused token is forgotten and its message shown; a network that fails three times says so.
 */
export const useAutoLogin = (
  enter: (answer: LoginAnswer, remembered: boolean) => void,
  fail: (message: string, refused: boolean) => void,
) => {
  const { t } = useTranslation();
  const tried = useRef(false);
  useEffect(() => {
    const deviceToken = localStorage.getItem(deviceTokenKey);
    if (!deviceToken || tried.current) return;
    tried.current = true;
    void (async () => {
      for (let attempt = 1; attempt <= autoLoginTries; attempt++) {
        try {
          const answer = await api.call(authRoutes.autoLogin, { body: { device_token: deviceToken } });
          enter(answer, true);
          return;
        } catch (err) {
          if (err instanceof ApiError && err.status !== 0) {
            localStorage.removeItem(deviceTokenKey);
            fail(withPrompt(err.message, t('login.writeAgain')), true);
            return;
          }
          if (attempt < autoLoginTries) await sleep(autoLoginRetryMs);
        }
      }
      fail(t('login.networkRetry'), false);
    })();
  }, [enter, fail, t]);
};

/** Enter (key code 13) submits, unless `held` (the change-password dialog is open, or a login is under way; 000 §2.1). */
export const useEnterSubmits = (submit: () => Promise<void>, held: boolean) => {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && !held) {
        event.preventDefault();
        void submit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [held, submit]);
};
