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

type Tree = { [key: string]: string | Tree };

/** Merges the shared texts into the web's, section by section (both may have e.g. `monitoring`). */
const deepMerge = (a: Tree, b: Tree): Tree => {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = typeof value === 'object' && typeof mine === 'object' ? deepMerge(mine, value) : value;
  }
  return out;
};

const resources = Object.fromEntries(
  (Object.keys(webMessages) as Language[]).map((lang) => [
    lang,
    { translation: deepMerge(webMessages[lang] as Tree, sharedMessages[lang] as Tree) },
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
