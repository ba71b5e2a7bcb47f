import { describe, expect, it } from 'vitest';
import { languageFromHeader, sharedText } from './i18n.ts';

describe('shared texts', () => {
  it.each([
    [undefined, 'zh_cn'],
    ['en_us', 'en_us'],
    ['en-US,en;q=0.9', 'en_us'],
    ['zh-HK', 'zh_xg'],
    ['zh-TW', 'zh_tw'],
    ['zh_xg', 'zh_xg'],
    ['fr-FR', 'zh_cn'],
  ])('Accept-Language %s → %s', (header, language) => {
    expect(languageFromHeader(header)).toBe(language);
  });

  it('fills placeholders and falls back to the key', () => {
    expect(sharedText('en_us', 'errors.unsupportedMediaType', { type: 'text/xml' })).toBe(
      'Unsupported content type: text/xml',
    );
    expect(sharedText('zh_cn', 'errors.notFound')).toBe('找不到数据或api不存在！');
    expect(sharedText('zh_cn', 'no.such.key')).toBe('no.such.key');
  });
});
