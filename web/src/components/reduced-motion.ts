import { useSyncExternalStore } from 'react';

const query = '(prefers-reduced-motion: reduce)';
const media = () => (typeof window.matchMedia === 'function' ? window.matchMedia(query) : undefined);

const subscribe = (onChange: () => void) => {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

/** Whether the user asked the system for reduced motion; follows a change of that setting. */
export const useReducedMotion = () => useSyncExternalStore(subscribe, () => media()?.matches ?? false);
