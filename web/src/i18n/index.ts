import { defaultLanguage, isLanguage, type Language, sharedMessages } from '@sitewatch/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en_us from './locales/en_us.json';
import zh_cn from './locales/zh_cn.json';
import zh_tw from './locales/zh_tw.json';
import zh_xg from './locales/zh_xg.json';

/** Web texts by language; the shared texts (error catalogue) come from the contract. */
export const webMessages = { zh_cn, zh_xg, zh_tw, en_us };

/** Key of the stored language (000 §4.11: stored language, else zh_cn). */
export const languageStorageKey = 'language';

export const storedLanguage = (): Language => {
  const value = globalThis.localStorage?.getItem(languageStorageKey);
  return isLanguage(value) ? value : defaultLanguage;
};

const resources = Object.fromEntries(
  (Object.keys(webMessages) as Language[]).map((lang) => [
    lang,
    { translation: { ...webMessages[lang], ...sharedMessages[lang] } },
  ]),
);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: defaultLanguage,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : defaultLanguage);
