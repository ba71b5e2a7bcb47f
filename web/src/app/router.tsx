import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * The route table: each feature adds its `routes.tsx` here when its pages exist.
 * `/` goes to the home route in single-page mode (000 §2.4); any other path is the 404 page.
 */
/** Pages shown inside the application shell (menu, top bar, tabs); each feature adds its routes here. */
export const shellRoutes: RouteObject[] = [];

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/home?fullShow=yes" replace /> },
  ...shellRoutes,
  { path: '*', element: <NotFoundPage /> },
];

export const createRouter = () => createBrowserRouter(routes);
