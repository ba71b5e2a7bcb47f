import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const MapPage = lazy(() => import('./pages/map-page.tsx').then((m) => ({ default: m.MapPage })));
const FullScreenPage = lazy(() => import('./pages/full-screen-page.tsx').then((m) => ({ default: m.FullScreenPage })));
const EditorPage = lazy(() => import('./pages/editor-page.tsx').then((m) => ({ default: m.EditorPage })));

/** The site map (issue 15): the live view /map (menu 107), inside the shell. */
export const siteMapRoutes: RouteObject[] = [{ path: '/map', element: <MapPage /> }];

/** The editor /groupmap_edit (menu 214), without the shell (001 §2). */
/** And the full-screen views /fullScreen, /fullScreen1–6, /tuoputu (docs/site-map.md "Full-screen views"). */
export const siteMapStandaloneRoutes: RouteObject[] = [
  { path: '/groupmap_edit', element: <EditorPage /> },
  ...(
    [
      'fullScreen',
      'fullScreen1',
      'fullScreen2',
      'fullScreen3',
      'fullScreen4',
      'fullScreen5',
      'fullScreen6',
      'tuoputu',
    ] as const
  ).map((name) => ({ path: `/${name}`, element: <FullScreenPage name={name} /> })),
];
