// @vitest-environment node
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { themeNames, themes } from '../../../components/themes.ts';
import { contrastRatio, parseColour } from '../render/contrast.ts';
import { wallBackground, wallTheme } from './wall-theme.ts';

/** Contrast of a token colour (maybe translucent) on an opaque background. */
const contrast = (text: string, background: string) => contrastRatio(parseColour(text)!, parseColour(background)!);

describe('empty states on every theme', () => {
  it.each(themeNames)('the wall displays read on their navy in the %s theme', (name) => {
    const token = theme.getDesignToken(wallTheme(themes[name]));
    // The empty state's text ("该站点尚未绘制图片") is colorTextSecondary; WCAG AA for text is 4.5.
    expect(contrast(token.colorTextSecondary, wallBackground)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(token.colorText, wallBackground)).toBeGreaterThanOrEqual(7);
    // The theme's own primary colour stays (as the dark algorithm draws it).
    expect(wallTheme(themes[name]).token?.colorPrimary).toBe(themes[name].token?.colorPrimary);
  });

  it.each(themeNames)('/map’s empty state reads on its card in the %s theme', (name) => {
    const token = theme.getDesignToken(themes[name]);
    expect(contrast(token.colorTextSecondary, token.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
  });
});
