import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { type ReactNode, useEffect, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { queryClient } from '../api/query-client.ts';
import { useReducedMotion } from '../components/reduced-motion.ts';
import { themes } from '../components/themes.ts';
import { i18n } from '../i18n/index.ts';
import { usePreferences } from '../session/preferences.ts';
import { followRootFontSize } from './root-font.ts';

/** `locale`: Ant Design's texts of the language in use, loaded before the first render (main.tsx). */
export const Providers = ({ children, locale }: { children: ReactNode; locale: Locale }) => {
  const language = usePreferences((s) => s.language);
  const theme = usePreferences((s) => s.theme);
  const reducedMotion = useReducedMotion();
  // Users who asked the system for reduced motion get dialogs, menus and lists without animation.
  const themeConfig = useMemo(
    () => (reducedMotion ? { ...themes[theme], token: { ...themes[theme].token, motion: false } } : themes[theme]),
    [theme, reducedMotion],
  );
  useEffect(() => followRootFontSize(), []);
  useEffect(() => {
    document.documentElement.lang = language.replace('_', '-');
  }, [language]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={locale} theme={themeConfig}>
        <AntdApp>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </AntdApp>
      </ConfigProvider>
    </I18nextProvider>
  );
};
