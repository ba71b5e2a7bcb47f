import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const ActionsPage = lazy(() => import('./pages/actions-page.tsx').then((m) => ({ default: m.ActionsPage })));
const LinkagePage = lazy(() => import('./pages/linkage-page.tsx').then((m) => ({ default: m.LinkagePage })));
const TasksPage = lazy(() => import('./pages/tasks-page.tsx').then((m) => ({ default: m.TasksPage })));

/** Automation (docs/automation.md): /setting_action, /linkage, /timed_tasks. */
export const automationRoutes: RouteObject[] = [
  { path: '/setting_action', element: <ActionsPage /> },
  { path: '/linkage', element: <LinkagePage /> },
  { path: '/timed_tasks', element: <TasksPage /> },
];
