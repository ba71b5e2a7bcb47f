import { type Language, languages } from '@sitewatch/contract';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../session/preferences.ts';
import { DeferredSelect } from './deferred-select.tsx';
import { type ThemeName, themeNames } from './themes.ts';

/** `onBeforeChange` lets a signed-in shell keep the language on the server first (000 §4.11). */
export const LanguagePicker = ({ onBeforeChange }: { onBeforeChange?: (language: Language) => Promise<void> }) => {
  const { t } = useTranslation();
  const language = usePreferences((s) => s.language);
  const setLanguageNow = usePreferences((s) => s.setLanguage);
  const setLanguage = (next: Language) => {
    if (!onBeforeChange) return setLanguageNow(next);
    // A failure to keep it on the server still switches the interface.
    void onBeforeChange(next)
      .catch(() => undefined)
      .finally(() => setLanguageNow(next));
  };
  return (
    <DeferredSelect<Language>
      aria-label={t('common.language')}
      value={language}
      style={{ minWidth: 150 }}
      onChange={setLanguage}
      options={languages.map((lang) => ({ value: lang, label: t(`languages.${lang}`) }))}
    />
  );
};

export const ThemePicker = () => {
  const { t } = useTranslation();
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);
  return (
    <DeferredSelect<ThemeName>
      aria-label={t('common.theme')}
      value={theme}
      style={{ minWidth: 120 }}
      onChange={setTheme}
      options={themeNames.map((name) => ({ value: name, label: t(`themes.${name}`) }))}
    />
  );
};
