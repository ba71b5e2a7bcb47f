import { theme as antdTheme, type ThemeConfig } from 'antd';

/** The six colour themes (000 §1), as Ant Design theme tokens. */
export const themeNames = ['default', 'blackBlue', 'violet', 'blue', 'cyan', 'green'] as const;
export type ThemeName = (typeof themeNames)[number];

export const isThemeName = (value: unknown): value is ThemeName =>
  typeof value === 'string' && (themeNames as readonly string[]).includes(value);

const shared = { borderRadius: 4, fontSize: 14 };
// Links take the theme's colour (antd draws them in its info blue otherwise, even in the green theme).

export const themes: Record<ThemeName, ThemeConfig> = {
  default: { token: { ...shared, colorPrimary: '#1677ff', colorLink: '#1677ff' } },
  blackBlue: {
    algorithm: antdTheme.darkAlgorithm,
    token: {
      ...shared,
      colorPrimary: '#1890ff',
      colorLink: '#1890ff',
      colorBgBase: '#0b1a2e',
      colorBgContainer: '#10233d',
    },
  },
  violet: { token: { ...shared, colorPrimary: '#722ed1', colorLink: '#722ed1' } },
  blue: { token: { ...shared, colorPrimary: '#2f54eb', colorLink: '#2f54eb' } },
  cyan: { token: { ...shared, colorPrimary: '#13a8a8', colorLink: '#13a8a8' } },
  green: { token: { ...shared, colorPrimary: '#389e0d', colorLink: '#389e0d' } },
};
