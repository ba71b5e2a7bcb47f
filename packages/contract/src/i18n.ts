import en_us from './locales/en_us.json' with { type: 'json' };
import zh_cn from './locales/zh_cn.json' with { type: 'json' };
import zh_tw from './locales/zh_tw.json' with { type: 'json' };
import zh_xg from './locales/zh_xg.json' with { type: 'json' };

/** The four interface languages; zh_cn is the default (000 §1). */
export const languages = ['zh_cn', 'zh_xg', 'zh_tw', 'en_us'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh_cn';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/**
 * Texts that both sides need (the error catalogue and server messages), one file a language.
 * The web merges them into its own resources; the server answers in the caller's language.
 */
export const sharedMessages: Record<Language, typeof zh_cn> = { zh_cn, zh_xg, zh_tw, en_us };

/** Picks the language of a request from `Accept-Language` (our client sends its own code). */
export const languageFromHeader = (header: string | undefined): Language => {
  if (!header) return defaultLanguage;
  const first = header.split(',')[0]?.trim().toLowerCase().replace('-', '_') ?? '';
  if (isLanguage(first)) return first;
  if (first.startsWith('en')) return 'en_us';
  if (first === 'zh_hk' || first === 'zh_mo') return 'zh_xg';
  if (first === 'zh_tw' || first.startsWith('zh_hant')) return 'zh_tw';
  return defaultLanguage;
};

/** Looks up a dotted key such as `errors.notFound`; fills `{{name}}` placeholders. */
export const sharedText = (language: Language, key: string, values: Record<string, string | number> = {}): string => {
  let node: unknown = sharedMessages[language];
  for (const part of key.split('.')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  const text = typeof node === 'string' ? node : key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
};
