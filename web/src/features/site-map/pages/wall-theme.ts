import { theme as antdTheme, type ThemeConfig } from 'antd';

/** The wall displays' background: dark navy on every theme (a control room's screen). */
export const wallBackground = '#061324';

/**
 * What the wall displays (/fullScreen…) lay over the user's theme: Ant Design's dark algorithm on
 * the navy background, the theme's own colours kept. Their Empty, buttons and texts were drawn with
 * a light theme's near-black on this navy (issue 38); nested in the app's ConfigProvider, this
 * inherits the rest of the theme.
 */
export const wallDress: ThemeConfig = {
  algorithm: antdTheme.darkAlgorithm,
  token: { colorBgBase: wallBackground, colorBgContainer: '#10233d', colorTextBase: '#e6f4ff' },
};

/** A theme as the wall displays dress it (what the nested ConfigProvider makes of it). */
export const wallTheme = (base: ThemeConfig): ThemeConfig => ({
  ...base,
  algorithm: wallDress.algorithm,
  token: { ...base.token, ...wallDress.token },
});
