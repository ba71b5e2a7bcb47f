import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const ArrangePage = lazy(() => import('./pages/arrange-page.tsx').then((m) => ({ default: m.ArrangePage })));
const HandoverPage = lazy(() => import('./pages/handover-page.tsx').then((m) => ({ default: m.HandoverPage })));
const MemoPage = lazy(() => import('./pages/memo-page.tsx').then((m) => ({ default: m.MemoPage })));

/** Duty (menus 731–733; docs/inspection-duty.md). */
export const dutyRoutes: RouteObject[] = [
  { path: '/duty_manage/duty_arrange', element: <ArrangePage /> },
  { path: '/duty_manage/change_shifts', element: <HandoverPage /> },
  { path: '/duty_manage/duty_memo', element: <MemoPage /> },
];
