import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const VideoSetupPage = lazy(() => import('./pages/setup-page.tsx').then((m) => ({ default: m.VideoSetupPage })));
const VideoLivePage = lazy(() => import('./pages/live-page.tsx').then((m) => ({ default: m.VideoLivePage })));

export const videoRoutes: RouteObject[] = [
  { path: '/setting_video_mange', element: <VideoSetupPage /> },
  { path: '/video_live', element: <VideoLivePage /> },
];
