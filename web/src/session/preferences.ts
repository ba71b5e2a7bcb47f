import type { Language } from '@sitewatch/contract';
import { create } from 'zustand';
import { isThemeName, type ThemeName } from '../components/themes.ts';
import { languageStorageKey, storedLanguage } from '../i18n/index.ts';

export const themeStorageKey = 'theme';

interface Preferences {
  language: Language;
  theme: ThemeName;
  setTheme(theme: ThemeName): void;
  /** Keeps the language and reloads, so every text and cached answer is in the new language (000 §4.11). */
  setLanguage(language: Language): void;
}

const storedTheme = (): ThemeName => {
  const value = localStorage.getItem(themeStorageKey);
  return isThemeName(value) ? value : 'default';
};

export const usePreferences = create<Preferences>((set) => ({
  language: storedLanguage(),
  theme: storedTheme(),
  setTheme: (theme) => {
    localStorage.setItem(themeStorageKey, theme);
    set({ theme });
  },
  setLanguage: (language) => {
    localStorage.setItem(languageStorageKey, language);
    set({ language });
    window.location.reload();
  },
}));
