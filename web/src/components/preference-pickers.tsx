import { type Language, languages } from '@sitewatch/contract';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../app/preferences.ts';
import { type ThemeName, themeNames } from '../app/themes.ts';

export const LanguagePicker = () => {
  const { t } = useTranslation();
  const language = usePreferences((s) => s.language);
  const setLanguage = usePreferences((s) => s.setLanguage);
  return (
    <Select<Language>
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
    <Select<ThemeName>
      aria-label={t('common.theme')}
      value={theme}
      style={{ minWidth: 120 }}
      onChange={setTheme}
      options={themeNames.map((name) => ({ value: name, label: t(`themes.${name}`) }))}
    />
  );
};
