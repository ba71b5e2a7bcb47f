import 'i18next';
import type shared from '../../../packages/contract/src/locales/zh_cn.json';
import type zh_cn from './locales/zh_cn.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zh_cn & typeof shared };
  }
}
