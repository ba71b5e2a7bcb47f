import type { Language } from '@sitewatch/contract';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';

/**
 * Ant Design's locale (and dayjs's) follow the interface language; only the language in use is
 * loaded (a change of language reloads the page, 000 §4.11).
 */
const loaders: Record<Language, () => Promise<Locale>> = {
  zh_cn: async () => {
    await import('dayjs/locale/zh-cn');
    dayjs.locale('zh-cn');
    return (await import('antd/locale/zh_CN')).default;
  },
  zh_xg: async () => {
    await import('dayjs/locale/zh-hk');
    dayjs.locale('zh-hk');
    return (await import('antd/locale/zh_HK')).default;
  },
  zh_tw: async () => {
    await import('dayjs/locale/zh-tw');
    dayjs.locale('zh-tw');
    return (await import('antd/locale/zh_TW')).default;
  },
  en_us: async () => {
    dayjs.locale('en');
    return (await import('antd/locale/en_US')).default;
  },
};

export const loadAntdLocale = (language: Language): Promise<Locale> => loaders[language]();
