import type { Language } from '@sitewatch/contract';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhHK from 'antd/locale/zh_HK';
import zhTW from 'antd/locale/zh_TW';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-hk';
import 'dayjs/locale/zh-tw';

/** Ant Design's locale (and dayjs's) follow the interface language. */
export const antdLocales: Record<Language, Locale> = { zh_cn: zhCN, zh_xg: zhHK, zh_tw: zhTW, en_us: enUS };
export const dayjsLocales: Record<Language, string> = { zh_cn: 'zh-cn', zh_xg: 'zh-hk', zh_tw: 'zh-tw', en_us: 'en' };
