import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const ApiTokensPage = lazy(() => import('./pages/api-tokens-page.tsx').then((m) => ({ default: m.ApiTokensPage })));

/** The user's own API tokens: reached from the user menu, open to every signed-in user (docs/api.md). */
export const tokensShellRoutes = (isAdmin: () => boolean): RouteObject[] => [
  { path: '/setting_api_tokens', element: <ApiTokensRoute isAdmin={isAdmin} /> },
];

const ApiTokensRoute = ({ isAdmin }: { isAdmin: () => boolean }) => <ApiTokensPage isAdmin={isAdmin()} />;
