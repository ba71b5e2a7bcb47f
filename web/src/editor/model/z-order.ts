/** The four layer moves of 001 §4; their names are also the undo steps' names. */
export type LayerMove = 'raise' | 'lower' | 'top' | 'bottom';

/**
 * Where a component at `index` of a stack of `length` goes, or null when it is already at that end
 * (the editor then says 已经到顶了 or 已经到底了).
 */
export const layerTarget = (move: LayerMove, index: number, length: number): number | null => {
  const last = length - 1;
  switch (move) {
    case 'raise':
      return index < last ? index + 1 : null;
    case 'lower':
      return index > 0 ? index - 1 : null;
    case 'top':
      return index < last ? last : null;
    case 'bottom':
      return index > 0 ? 0 : null;
  }
};
