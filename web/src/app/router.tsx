import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * The route table: each feature adds its `routes.tsx` here when its pages exist.
 * `/` goes to the home route in single-page mode (000 §2.4); any other path is the 404 page.
 */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/home?fullShow=yes" replace /> },
  { path: '*', element: <NotFoundPage /> },
];

export const createRouter = () => createBrowserRouter(routes);
