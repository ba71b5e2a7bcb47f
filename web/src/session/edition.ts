import { defaultLanguage, isLanguage, type Language } from '@sitewatch/contract';
import { brandingRoutes, type EditionInfo, type LogoKind } from '@sitewatch/contract/branding';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { languageStorageKey } from '../i18n/index.ts';

/**
 * What the login page, the top bar and /home show of the edition (000 §2.1, §2.4, §2.6, §3 edition
 * information): read from GET pub/info (public), the product's own name and logo until it answers
 * or when it fails.
 */
export type { EditionInfo } from '@sitewatch/contract/branding';

const noLogo = { url: '', width: 0, height: 0, size: 0 };

export const defaultEdition: EditionInfo = {
  edition: 'standard',
  language: 'zh_cn',
  company: '',
  sys_name: '',
  sys_show: true,
  support_show: false,
  support_info: '',
  sys_info_show: false,
  sys_info: '',
  filing_display: false,
  filing_info: '',
  filing_number: '',
  login_logo: noLogo,
  main_logo: noLogo,
};

export const editionInfoQuery = queryOptions({
  queryKey: ['branding', 'info'],
  queryFn: async () => (await api.call(brandingRoutes.info)).data[0] ?? defaultEdition,
  staleTime: 5 * 60_000,
});

/** The edition information, or the defaults while it loads or when it cannot be read. */
export const useEdition = (): EditionInfo => useQuery(editionInfoQuery).data ?? defaultEdition;

/** The product's own logo, shown when none is uploaded. */
export const productLogo = '/favicon.svg';

/** The address of a logo: the uploaded one, else the product's. */
export const logoUrl = (info: EditionInfo, kind: LogoKind) =>
  (kind === 'login' ? info.login_logo.url : info.main_logo.url) || productLogo;

/**
 * The language to start in (000 §4.11): the stored one; a browser with none takes the
 * installation's from the edition answer (GET pub/edition) and keeps it; when that fails, zh_cn.
 * A user's own choice is stored by the language switch and by sign-in (session.ts), so it wins.
 */
export const startLanguage = async (): Promise<Language> => {
  const stored = globalThis.localStorage?.getItem(languageStorageKey);
  if (isLanguage(stored)) return stored;
  try {
    const { language } = await api.call(brandingRoutes.edition);
    localStorage.setItem(languageStorageKey, language);
    return language;
  } catch {
    return defaultLanguage;
  }
};
