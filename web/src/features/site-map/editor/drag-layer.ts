/** The selection frames of a drag: their box, the frames of the dragged components, and whether those are all of them. */
export interface DraggedFrames {
  box: HTMLElement;
  moving: HTMLElement[];
  all: boolean;
}

/** Where a lifted element lay: its parent and the sibling it came before. */
interface Place {
  el: HTMLElement;
  parent: Node;
  next: Node | null;
}

/**
 * The picture of a drag in progress. The dragged elements themselves are moved into one layer,
 * which a pointer move translates as a whole; their selection frames move with their box when every
 * frame moves (else they are moved into a layer of their own too). A move then writes one transform
 * to a layer or two: no style, layout or paint of the dragged elements, where a translation written
 * to each of 200 elements cost Chromium a repaint and re-layerisation of the scene on every frame.
 * Moving the originals, not copies of them, keeps the first move cheap: a copy of 2 000 components
 * cost their cloning, a fetch and a load event per copied image, and twice the elements to style
 * (docs/site-map.md "Performance of the drag"). Release puts every element back where it lay, before
 * React draws the committed change, so React finds its nodes as it left them.
 */
export class DragLayer {
  #moved: HTMLElement[] = [];
  #layers: HTMLElement[] = [];
  #places: Place[] = [];

  /**
   * The component layer sits at the highest layer of the dragged ones, so they keep their order
   * among themselves and stay above what lay beneath the top one of them.
   */
  constructor(scene: HTMLElement, components: HTMLElement[], frames: DraggedFrames) {
    const top = Math.max(0, ...components.map((el) => Number(el.style.zIndex) || 0));
    this.#lift(scene, components, top);
    if (frames.all) {
      frames.box.classList.add('sm-dragging');
      this.#moved.push(frames.box);
    } else this.#lift(frames.box, frames.moving, 0, 'sm-frames');
  }

  #lift(parent: HTMLElement, elements: HTMLElement[], zIndex: number, className = ''): void {
    if (elements.length === 0) return;
    const layer = document.createElement('div');
    layer.className = `sm-drag-layer sm-dragging ${className}`.trim();
    layer.style.zIndex = String(zIndex);
    // In document order (one walk of each parent's children), so that they keep their order in the
    // layer and release can put them back from the last (see drop).
    const lifting = new Set(elements);
    const ordered: HTMLElement[] = [];
    for (const from of new Set(elements.map((el) => el.parentElement)))
      for (const el of from?.children ?? []) if (lifting.has(el as HTMLElement)) ordered.push(el as HTMLElement);
    for (const el of ordered) this.#places.push({ el, parent: el.parentNode!, next: el.nextSibling });
    layer.append(...ordered);
    parent.append(layer);
    this.#layers.push(layer);
    this.#moved.push(layer);
  }

  /** Shows the dragged set moved by dx, dy from where it lies. */
  move(dx: number, dy: number): void {
    for (const el of this.#moved) el.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  /** Puts every element back where it lay and removes the layers. */
  drop(): void {
    for (const el of this.#moved) {
      el.style.transform = '';
      el.classList.remove('sm-dragging');
    }
    // From the last: each element's next sibling is then back in place (or was never lifted).
    for (let i = this.#places.length - 1; i >= 0; i--) {
      const { el, parent, next } = this.#places[i]!;
      parent.insertBefore(el, next && next.parentNode === parent ? next : null);
    }
    for (const layer of this.#layers) layer.remove();
    this.#moved = [];
    this.#layers = [];
    this.#places = [];
  }
}
