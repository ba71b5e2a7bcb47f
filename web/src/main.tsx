import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/query-client.ts';
import { readToken } from './api/tokens.ts';
import { loadAntdLocale } from './app/antd-locales.ts';
import { Providers } from './app/providers.tsx';
import { createRouter, prefetchLanding } from './app/router.tsx';
import { initI18n } from './i18n/index.ts';
import { startLanguage } from './session/edition.ts';
import { useSession } from './session/session.ts';
import './styles.css';

// A part of the app that fails to load (an upgrade replaced its file, a connection dropped on a busy
// box) reloads the page once instead of leaving an error page; a second failure within a minute is
// shown (Vite's advice for `vite:preloadError`).
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('chunkReloadAt') ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem('chunkReloadAt', String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// A signed-in browser asks who it is and for its menus while the texts load, not after the shell's
// first render (the home dashboard is ready sooner, bench/web.ts).
if (readToken() && window.location.pathname !== '/login') {
  void useSession.getState().load();
  prefetchLanding(window.location.pathname, queryClient);
}
// The texts of the one language in use load before the first render; the login page's part only
// on the login page (the router loads the rest before any other page renders).
// A browser with no stored language takes the installation's from the edition answer (000 §4.11).
const language = await startLanguage();
const [locale] = await Promise.all([
  loadAntdLocale(language),
  initI18n(language, window.location.pathname !== '/login'),
]);
createRoot(root).render(
  <StrictMode>
    <Providers locale={locale}>
      <RouterProvider router={createRouter()} />
    </Providers>
  </StrictMode>,
);
