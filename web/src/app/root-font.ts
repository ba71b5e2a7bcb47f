/**
 * Root font size (000 §9): window width relative to 1920, the factor at most 2, base 100 px,
 * so that `rem` sizes scale from a laptop to a wall screen.
 */
export const rootFontSize = (windowWidth: number): number => 100 * Math.min(windowWidth / 1920, 2);

export const followRootFontSize = (win: Window = window): (() => void) => {
  const apply = () => {
    win.document.documentElement.style.fontSize = `${rootFontSize(win.innerWidth)}px`;
  };
  apply();
  win.addEventListener('resize', apply);
  return () => win.removeEventListener('resize', apply);
};
