/** The selection frames of a drag: their box, the frames of the dragged components, and whether those are all of them. */
export interface DraggedFrames {
  box: HTMLElement;
  moving: HTMLElement[];
  all: boolean;
}

/**
 * The picture of a drag in progress. The dragged components are copied into one layer, which a
 * pointer move translates as a whole, while the originals are out of the drawing; their selection
 * frames move with their box when every frame moves (else as copies too). A move then writes one
 * transform to a layer or two: no style, layout or paint of the dragged elements, where a
 * translation written to each of 200 elements cost Chromium a repaint and re-layerisation of the
 * scene on every frame (docs/site-map.md "Performance"). Release removes the copies and shows the
 * originals, which the committed change has put in their new places.
 */
export class DragLayer {
  #moved: HTMLElement[] = [];
  #copies: HTMLElement[] = [];
  #lifted: HTMLElement[] = [];

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
    for (const el of elements) {
      const copy = el.cloneNode(true) as HTMLElement;
      // The copy is a picture only: queries by id keep finding the original.
      copy.removeAttribute('data-id');
      copy.removeAttribute('data-frame-id');
      layer.append(copy);
    }
    // Hidden after copying, so the copies are not born hidden.
    for (const el of elements) el.classList.add('sm-lifted');
    this.#lifted.push(...elements);
    // First, not last, among the scene's 2 000 children: its z-index places it, and an event on a node
    // React did not make (each copied image's load) has React look for its owner through the
    // node's previous siblings, which cost 100 ms at the first move of 200 when they were all of them.
    parent.prepend(layer);
    this.#copies.push(layer);
    this.#moved.push(layer);
  }

  /** Shows the dragged set moved by dx, dy from where it lies. */
  move(dx: number, dy: number): void {
    for (const el of this.#moved) el.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  /** Removes the copies and shows the originals again. */
  drop(): void {
    for (const el of this.#moved) {
      el.style.transform = '';
      el.classList.remove('sm-dragging');
    }
    for (const layer of this.#copies) layer.remove();
    for (const el of this.#lifted) el.classList.remove('sm-lifted');
    this.#moved = [];
    this.#copies = [];
    this.#lifted = [];
  }
}
