import { authRoutes } from '@sitewatch/contract/auth';
import { useQuery } from '@tanstack/react-query';
import { Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { lastActivityKey } from '../../api/tokens.ts';
import { logout } from '../../session/logout.ts';

/** 000 §4.9: countdown 30 s, idle checked every 3 s, activity saved at most every 2 s. */
const countdownSeconds = 30;
const checkEveryMs = 3_000;
const saveEveryMs = 2_000;

const readActivity = () => Number(localStorage.getItem(lastActivityKey) ?? Date.now());

/**
 * Idle auto-logout driven by ACCOUNT_SAFE. Activity is kept in local storage, so several tabs of
 * the console share it, and sent to the server, which enforces the same rule.
 */
export const IdleLogout = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: ['auth', 'account-safe'],
    queryFn: () => api.call(authRoutes.globalConfigRead, { query: { k: 'ACCOUNT_SAFE' } }),
    staleTime: 60_000,
  });
  const config = data && 'acc_logout_config' in data ? data.acc_logout_config : null;
  const [left, setLeft] = useState<number | null>(null);
  const lastSave = useRef(0);

  useEffect(() => {
    const onActivity = () => {
      if (Date.now() - lastSave.current < saveEveryMs) return;
      lastSave.current = Date.now();
      localStorage.setItem(lastActivityKey, String(Date.now()));
    };
    localStorage.setItem(lastActivityKey, String(Date.now()));
    const events = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity);
    };
  }, []);

  useEffect(() => {
    if (!config?.enabled) return;
    const timer = setInterval(() => {
      const idleMs = Date.now() - readActivity();
      const limitMs = config.opt_period * 60_000;
      setLeft((current) => {
        if (current !== null) return current;
        return idleMs > limitMs ? countdownSeconds : null;
      });
    }, checkEveryMs);
    return () => clearInterval(timer);
  }, [config?.enabled, config?.opt_period]);

  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      void logout().finally(() => navigate('/login', { replace: true }));
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1_000);
    return () => clearTimeout(timer);
  }, [left, navigate]);

  return (
    <Modal
      open={left !== null && left > 0}
      title={t('shell.idle.title')}
      okText={t('shell.idle.stay')}
      cancelButtonProps={{ style: { display: 'none' } }}
      closable={false}
      maskClosable={false}
      onOk={() => {
        localStorage.setItem(lastActivityKey, String(Date.now()));
        setLeft(null);
      }}
    >
      {t('shell.idle.countdown', { seconds: left ?? 0 })}
    </Modal>
  );
};
