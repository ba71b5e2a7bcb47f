import { defaultLanguage, isLanguage, type Language } from '@sitewatch/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { TextPart, TextTree } from './sections.ts';

/** Key of the stored language (000 §4.11: stored language, else zh_cn). */
export const languageStorageKey = 'language';

export const storedLanguage = (): Language => {
  const value = globalThis.localStorage?.getItem(languageStorageKey);
  return isLanguage(value) ? value : defaultLanguage;
};

/**
 * Each language's texts load on their own: a page shows one language and a change of language
 * reloads the page (000 §4.11), so the login page never downloads the other three. Each language
 * comes in two parts (sections.ts): the login page loads the first only, the other pages both.
 * Web texts here; the shared texts (error catalogue) come from the contract.
 */
const texts: Record<Language, Record<TextPart, () => Promise<{ default: TextTree }[]>>> = {
  zh_cn: {
    first: () =>
      Promise.all([
        import('./locales/zh_cn.json?texts=first'),
        import('@sitewatch/contract/locales/zh_cn.json?texts=first'),
      ]),
    rest: () =>
      Promise.all([
        import('./locales/zh_cn.json?texts=rest'),
        import('@sitewatch/contract/locales/zh_cn.json?texts=rest'),
      ]),
  },
  zh_xg: {
    first: () =>
      Promise.all([
        import('./locales/zh_xg.json?texts=first'),
        import('@sitewatch/contract/locales/zh_xg.json?texts=first'),
      ]),
    rest: () =>
      Promise.all([
        import('./locales/zh_xg.json?texts=rest'),
        import('@sitewatch/contract/locales/zh_xg.json?texts=rest'),
      ]),
  },
  zh_tw: {
    first: () =>
      Promise.all([
        import('./locales/zh_tw.json?texts=first'),
        import('@sitewatch/contract/locales/zh_tw.json?texts=first'),
      ]),
    rest: () =>
      Promise.all([
        import('./locales/zh_tw.json?texts=rest'),
        import('@sitewatch/contract/locales/zh_tw.json?texts=rest'),
      ]),
  },
  en_us: {
    first: () =>
      Promise.all([
        import('./locales/en_us.json?texts=first'),
        import('@sitewatch/contract/locales/en_us.json?texts=first'),
      ]),
    rest: () =>
      Promise.all([
        import('./locales/en_us.json?texts=rest'),
        import('@sitewatch/contract/locales/en_us.json?texts=rest'),
      ]),
  },
};

/** Merges the shared texts into the web's, section by section (both may have e.g. `monitoring`). */
const deepMerge = (a: TextTree, b: TextTree): TextTree => {
  const out: TextTree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = typeof value === 'object' && typeof mine === 'object' ? deepMerge(mine, value) : value;
  }
  return out;
};

const loadPart = async (language: Language, part: TextPart): Promise<TextTree> => {
  const [web, shared] = await texts[language][part]();
  return deepMerge(web?.default ?? {}, shared?.default ?? {});
};

export const i18n = i18next.createInstance();

let restLoaded = false;
let restLoading: Promise<void> | undefined;

/**
 * Loads one language's texts and starts i18next with them; called once before the first render.
 * The login page asks for the first part only (`all` false); the rest comes with `loadAllTexts`.
 */
export const initI18n = async (language: Language = storedLanguage(), all = true) => {
  const [first, rest] = await Promise.all([loadPart(language, 'first'), all ? loadPart(language, 'rest') : undefined]);
  await i18n.use(initReactI18next).init({
    resources: { [language]: { translation: rest ? { ...first, ...rest } : first } },
    lng: language,
    // Every language file has every key (locales.test.ts), so there is nothing to fall back to.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  restLoaded = Boolean(rest);
};

/** Whether every section's texts are in (pages past the login page render only then). */
export const allTextsLoaded = () => restLoaded;

/** Loads the sections the login page left out, once; resolves at once when they are in. */
export const loadAllTexts = (): Promise<void> => {
  if (restLoaded) return Promise.resolve();
  restLoading ??= loadPart(currentLanguage(), 'rest').then(
    (rest) => {
      i18n.addResourceBundle(currentLanguage(), 'translation', rest, true, true);
      restLoaded = true;
    },
    (error: unknown) => {
      // A failed download is tried again by the next page that asks.
      restLoading = undefined;
      throw error;
    },
  );
  return restLoading;
};

/** The language in use; before the texts have loaded, the stored one (requests may start earlier). */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : storedLanguage());
