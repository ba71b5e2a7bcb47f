import type { ComponentAnimation } from '../../../editor/model/records.ts';

/** Animation names the renderer knows, by category (001 §3: enter, emphasis, exit). */
export const animationNames = {
  enter: ['fadeIn', 'zoomIn', 'slideIn'],
  emphasis: ['pulse', 'shake', 'flash'],
  exit: ['fadeOut', 'zoomOut'],
} as const;

/**
 * The CSS `animation` of a component's animations: each runs once in turn (enter, then emphasis,
 * then exit), except a looped one, which repeats for ever. Unknown names are skipped.
 */
export const animationCss = (animations: readonly ComponentAnimation[]): string | undefined => {
  const order = { enter: 0, emphasis: 1, exit: 2 } as const;
  const known = animations
    .filter((a) => (animationNames[a.category] as readonly string[]).includes(a.name))
    .sort((a, b) => order[a.category] - order[b.category]);
  let delay = 0;
  const parts = known.map((a) => {
    const seconds = a.duration ?? 1;
    const part = `sm-${a.name} ${seconds}s ease ${delay}s ${a.loop ? 'infinite' : '1'} both`;
    delay += seconds;
    return part;
  });
  return parts.length > 0 ? parts.join(', ') : undefined;
};
