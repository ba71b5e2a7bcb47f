import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SettingMenuPage = lazy(() =>
  import('./pages/setting-menu-page.tsx').then((m) => ({ default: m.SettingMenuPage })),
);
const ConfigMenuPage = lazy(() => import('./pages/config-menu-page.tsx').then((m) => ({ default: m.ConfigMenuPage })));
const ExternalLinkPage = lazy(() =>
  import('./pages/external-link-page.tsx').then((m) => ({ default: m.ExternalLinkPage })),
);
const AssetPage = lazy(() => import('./pages/asset-page.tsx').then((m) => ({ default: m.AssetPage })));

/** Custom menus (docs/custom-menus.md): the settings page, the custom pages, external links, the asset system. */
export const customMenusRoutes: RouteObject[] = [
  { path: '/setting_menu', element: <SettingMenuPage /> },
  { path: '/config_menu', element: <ConfigMenuPage /> },
  { path: '/external_link', element: <ExternalLinkPage /> },
  { path: '/asset_management', element: <AssetPage /> },
];
