import { defaultLanguage, isLanguage, type Language } from '@sitewatch/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Key of the stored language (000 §4.11: stored language, else zh_cn). */
export const languageStorageKey = 'language';

export const storedLanguage = (): Language => {
  const value = globalThis.localStorage?.getItem(languageStorageKey);
  return isLanguage(value) ? value : defaultLanguage;
};

type Tree = { [key: string]: string | Tree };

/**
 * Each language's texts load on their own: a page shows one language and a change of language
 * reloads the page (000 §4.11), so the login page never downloads the other three.
 * Web texts here; the shared texts (error catalogue) come from the contract.
 */
const webTexts: Record<Language, () => Promise<{ default: Tree }>> = {
  zh_cn: () => import('./locales/zh_cn.json'),
  zh_xg: () => import('./locales/zh_xg.json'),
  zh_tw: () => import('./locales/zh_tw.json'),
  en_us: () => import('./locales/en_us.json'),
};
const sharedTexts: Record<Language, () => Promise<{ default: Tree }>> = {
  zh_cn: () => import('@sitewatch/contract/locales/zh_cn.json'),
  zh_xg: () => import('@sitewatch/contract/locales/zh_xg.json'),
  zh_tw: () => import('@sitewatch/contract/locales/zh_tw.json'),
  en_us: () => import('@sitewatch/contract/locales/en_us.json'),
};

/** Merges the shared texts into the web's, section by section (both may have e.g. `monitoring`). */
const deepMerge = (a: Tree, b: Tree): Tree => {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = typeof value === 'object' && typeof mine === 'object' ? deepMerge(mine, value) : value;
  }
  return out;
};

export const i18n = i18next.createInstance();

/** Loads one language's texts and starts i18next with them; called once before the first render. */
export const initI18n = async (language: Language = storedLanguage()) => {
  const [web, shared] = await Promise.all([webTexts[language](), sharedTexts[language]()]);
  await i18n.use(initReactI18next).init({
    resources: { [language]: { translation: deepMerge(web.default, shared.default) } },
    lng: language,
    // Every language file has every key (locales.test.ts), so there is nothing to fall back to.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
};

/** The language in use; before the texts have loaded, the stored one (requests may start earlier). */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : storedLanguage());
