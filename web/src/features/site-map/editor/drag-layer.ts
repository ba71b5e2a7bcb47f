import { rotatedBounds } from '../../../editor/model/geometry.ts';
import type { ComponentRecord } from '../../../editor/model/records.ts';
import { rectOf } from '../../../editor/model/transforms.ts';
import { layersOf } from '../render/scene-view.tsx';

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
 * The picture of a drag. The dragged elements themselves are moved into one layer, which a pointer
 * move translates as a whole; their selection frames move with their box when every frame moves
 * (else they are moved into a layer of their own too). A move then writes one transform to a layer
 * or two: no style, layout or paint of the dragged elements, where a translation written to each of
 * 200 elements cost Chromium a repaint and re-layerisation of the scene on every frame. Moving the
 * originals, not copies of them, keeps the lifting cheaper: a copy of 2 000 components cost their
 * cloning, a fetch and a load event per copied image, and twice the elements to style.
 *
 * Lifting still costs Chromium the style, attachment and paint of every lifted element, so it may
 * be paid ahead in slices (`lift`), topmost first, while a selection waits for its drag: each slice
 * lies beneath the ones before, so a part-lifted set draws as the whole one (docs/site-map.md
 * "Performance of the drag"). Elements go back in the reverse of their lifting, each before the
 * sibling it had then, so React finds its nodes as it left them.
 */
/** How a drag draws: started once, moved on each pointer move, ended on release. */
export interface DragPicture {
  begin(frames: DraggedFrames): void;
  move(dx: number, dy: number): void;
  end(): void;
}

export class DragLayer implements DragPicture {
  readonly #layer: HTMLElement;
  readonly #places: Place[] = [];
  #frames: { frames: DraggedFrames; layer: HTMLElement | null; places: Place[] } | null = null;

  /** An empty layer at `top`, the highest layer of the components to drag (see liftOrder). */
  constructor(
    scene: HTMLElement,
    readonly top: number,
  ) {
    this.#layer = document.createElement('div');
    this.#layer.className = 'sm-drag-layer sm-dragging';
    this.#layer.style.zIndex = String(top);
    scene.append(this.#layer);
  }

  /** How many elements are lifted. */
  get size(): number {
    return this.#places.length;
  }

  /** Lifts elements that lie beneath every one lifted so far, given bottom first. */
  lift(elements: readonly HTMLElement[]): void {
    const slice = document.createDocumentFragment();
    for (const el of elements) {
      this.#places.push({ el, parent: el.parentNode!, next: el.nextSibling });
      slice.append(el);
    }
    this.#layer.prepend(slice);
  }

  /** Puts back the `count` elements lifted last (the lowest), leaving a set that still draws right. */
  lower(count: number): void {
    restore(this.#places, count);
  }

  /** Starts a drag: the frames move with their box, or in a layer of their own when not all of them move. */
  begin(frames: DraggedFrames): void {
    if (this.#frames) return;
    let layer: HTMLElement | null = null;
    const places: Place[] = [];
    if (frames.all) frames.box.classList.add('sm-dragging');
    else if (frames.moving.length > 0) {
      layer = document.createElement('div');
      layer.className = 'sm-drag-layer sm-dragging sm-frames';
      for (const el of inDocumentOrder(frames.moving)) {
        places.push({ el, parent: el.parentNode!, next: el.nextSibling });
        layer.append(el);
      }
      frames.box.append(layer);
    }
    this.#frames = { frames, layer, places };
  }

  /** Shows the dragged set moved by dx, dy from where it lies. */
  move(dx: number, dy: number): void {
    const transform = dx === 0 && dy === 0 ? '' : `translate(${dx}px, ${dy}px)`;
    this.#layer.style.transform = transform;
    if (!this.#frames) return;
    const { frames, layer } = this.#frames;
    if (frames.all) frames.box.style.transform = transform;
    else if (layer) layer.style.transform = transform;
  }

  /** Ends a drag: the set unmoved and its frames back in their box; the lifted elements stay lifted. */
  end(): void {
    this.#layer.style.transform = '';
    if (!this.#frames) return;
    const { frames, layer, places } = this.#frames;
    frames.box.style.transform = '';
    frames.box.classList.remove('sm-dragging');
    restore(places, places.length);
    layer?.remove();
    this.#frames = null;
  }

  /** Puts every element back where it lay and removes the layers. */
  drop(): void {
    this.end();
    restore(this.#places, this.#places.length);
    this.#layer.remove();
  }
}

/** Puts back the last `count` of `places`, last first, and forgets them. */
const restore = (places: Place[], count: number) => {
  for (let n = 0; n < count && places.length > 0; n++) {
    const { el, parent, next } = places.pop()!;
    parent.insertBefore(el, next && next.parentNode === parent ? next : null);
  }
};

/** Elements in document order (one walk of each parent's children). */
const inDocumentOrder = (elements: readonly HTMLElement[]): HTMLElement[] => {
  const wanted = new Set(elements);
  const ordered: HTMLElement[] = [];
  for (const from of new Set(elements.map((el) => el.parentElement)))
    for (const el of from?.children ?? []) if (wanted.has(el as HTMLElement)) ordered.push(el as HTMLElement);
  return ordered;
};

/** Room around a component's box for what it draws outside it (a stroke, a text shadow). */
const bleed = 4;

/**
 * The ids of `dragged` from the topmost down, as the scene paints them (by layer, then in record
 * order, which is the elements' order), and the layer the lifted ones are drawn at; `safe` tells
 * whether lifting them changes nothing in the picture: no other component painted above one of them
 * and beneath the lifted layer overlaps it. `dragged` holds the records a drag moves (the members
 * of dragged groups with them).
 */
export const liftOrder = (
  records: readonly ComponentRecord[],
  dragged: ReadonlySet<string>,
): { ids: string[]; top: number; safe: boolean } => {
  const layers = layersOf(records);
  const paint = new Map(records.map((r, i) => [r.id, [layers.get(r.id) ?? 0, i] as const]));
  const above = (a: readonly [number, number], b: readonly [number, number]) =>
    a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
  const moved = records
    .filter((r) => dragged.has(r.id))
    .sort((a, b) => (above(paint.get(a.id)!, paint.get(b.id)!) ? -1 : 1));
  const top = moved.length > 0 ? paint.get(moved[0]!.id)![0] : 0;
  const lowest = moved.at(-1);
  let safe = true;
  if (lowest) {
    const boxes = moved.map((r) => ({ p: paint.get(r.id)!, box: rotatedBounds(rectOf(r), r.rotate) }));
    for (const r of records) {
      const p = paint.get(r.id)!;
      // Beneath the lifted layer afterwards, above the lowest dragged one before.
      if (dragged.has(r.id) || p[0] > top || !above(p, paint.get(lowest.id)!)) continue;
      const b = rotatedBounds(rectOf(r), r.rotate);
      if (
        boxes.some(
          (d) =>
            above(p, d.p) &&
            b.left - bleed < d.box.left + d.box.width &&
            d.box.left < b.left + b.width + bleed &&
            b.top - bleed < d.box.top + d.box.height &&
            d.box.top < b.top + b.height + bleed,
        )
      ) {
        safe = false;
        break;
      }
    }
  }
  return { ids: moved.map((r) => r.id), top, safe };
};

/** At most this many components may stay for a drag to move the whole scene instead (SceneShift). */
const shiftStayMax = 50;

/**
 * The components that stay when a drag moves nearly all of them, when a SceneShift draws it right:
 * few enough, all beneath every dragged one (the background, what lies under everything).
 */
export const shiftStays = (
  records: readonly ComponentRecord[],
  dragged: ReadonlySet<string>,
): ComponentRecord[] | null => {
  if (dragged.size === 0 || records.length - dragged.size > shiftStayMax) return null;
  const layers = layersOf(records);
  let lowest = Number.POSITIVE_INFINITY;
  for (const r of records) if (dragged.has(r.id)) lowest = Math.min(lowest, layers.get(r.id)!);
  const stays = records.filter((r) => !dragged.has(r.id));
  return stays.every((r) => layers.get(r.id)! < lowest) ? stays : null;
};

/**
 * A drag of (nearly) every component: the scene, a compositor layer of its own in the editor, is
 * translated as a whole, and the few components that stay are lifted into a layer translated back,
 * so nothing of the 2 000 is styled or painted again (lifting them all cost 100-250 ms in the first
 * move). The canvas element behind clips and paints the scene's background meanwhile. Only when
 * every selection frame moves (they move with the scene).
 */
export class SceneShift implements DragPicture {
  readonly #scene: HTMLElement;
  readonly #back: DragLayer;
  /** Children of the scene drawn over the components (the heat map): they stay too. */
  readonly #over: HTMLElement[];

  /** `back`: the components that stay, lifted into their layer (LiftAhead lifts them ahead too). */
  constructor(scene: HTMLElement, back: DragLayer) {
    this.#scene = scene;
    this.#over = [...scene.children].filter(
      (el): el is HTMLElement =>
        el instanceof HTMLElement &&
        !el.dataset.id &&
        !el.classList.contains('sm-overlay') &&
        !el.classList.contains('sm-drag-layer'),
    );
    this.#back = back;
    scene.parentElement?.classList.add('sm-shifting');
  }

  begin(): void {}

  move(dx: number, dy: number): void {
    const still = dx === 0 && dy === 0;
    this.#scene.style.transform = still ? '' : `translate(${dx}px, ${dy}px)`;
    this.#back.move(-dx, -dy);
    for (const el of this.#over) el.style.translate = still ? '' : `${-dx}px ${-dy}px`;
  }

  /** The components that stay stay lifted, as a DragLayer's do after a drag. */
  end(): void {
    this.move(0, 0);
    this.#scene.parentElement?.classList.remove('sm-shifting');
  }
}

/** What a layer is lifted for: the dragged ids, topmost first, and the layer they are drawn at. */
interface Plan {
  key: string;
  ids: string[];
  top: number;
  safe: boolean;
}

const planOf = (records: readonly ComponentRecord[], dragged: ReadonlySet<string>): Plan => {
  const { ids, top, safe } = liftOrder(records, dragged);
  return { key: `${top}:${ids.join(' ')}`, ids, top, safe };
};

/**
 * The browser's work a slice may add to its frame, in ms: at 12 the 200-drag's slices took 33-67 ms
 * frames at load 5-7; at 8 a frame keeps room for the rest of its work on a loaded machine.
 */
const sliceBudgetMs = 8;

/**
 * Lifts the components a drag of the selection would move before the drag, in slices of about
 * `sliceBudgetMs` of the browser's work, one per animation frame, after the selection settled, so
 * that the press and first move find them lifted (docs/site-map.md "Performance of the drag").
 * Only when lifting them changes nothing in the picture (liftOrder's `safe`); the drag lifts what
 * is left, or all of them when they could not be lifted ahead. The lifted set outlives a drag: a
 * release that leaves it drawing right keeps it for the next one. A new selection lowers it again
 * in slices; a change of the records that would redraw it differently, or that React would apply
 * by moving the scene's children, puts it all back at once, before React draws the change.
 */
export class LiftAhead {
  #layer: DragLayer | null = null;
  /** What #layer holds (some or all of its ids, topmost first). */
  #plan: Plan | null = null;
  /** What the selection would drag, when it may be lifted ahead. */
  #want: Plan | null = null;
  /** The records of the last plan, by which a change tells whether React moves the scene's children. */
  #records: readonly ComponentRecord[] = [];
  #elements: Map<string, HTMLElement> | null = null;
  #idle = 0;
  #frame = 0;
  #last = 0;
  /** Elements in the next slice: a small first one, then sized by what the last one cost. */
  #slice = 24;

  constructor(readonly scene: () => HTMLElement | null) {}

  /** After a selection or the records settled: lifts (or lowers) toward what `dragged` needs, in idle slices. */
  prepare(records: readonly ComponentRecord[], dragged: ReadonlySet<string>): void {
    this.#records = records;
    const plan = planOf(records, dragged);
    // A drag that moves the whole scene lifts the few that stay instead, into the layer it moves back (see take).
    const stays = shiftStays(records, dragged);
    const wanted = stays ? planOf(records, new Set(stays.map((r) => r.id))) : plan;
    this.#want = wanted.safe && wanted.ids.length > 0 ? wanted : null;
    if (this.#done()) return;
    this.#cancel();
    const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    this.#idle = idle(() => {
      this.#idle = 0;
      this.#last = 0;
      this.#frame = requestAnimationFrame(this.#tick);
    }) as number;
  }

  /**
   * The picture of a drag of `ids` (the records the gesture moves), begun: the whole scene moved
   * when that draws it right, else the layer with every one of them lifted.
   */
  take(records: readonly ComponentRecord[], ids: ReadonlySet<string>, frames: DraggedFrames): DragPicture {
    const stays = frames.all ? shiftStays(records, ids) : null;
    const scene = this.scene();
    if (stays && scene) return new SceneShift(scene, this.#layerFor(records, new Set(stays.map((r) => r.id))));
    const layer = this.#layerFor(records, ids);
    layer.begin(frames);
    return layer;
  }

  #layerFor(records: readonly ComponentRecord[], ids: ReadonlySet<string>): DragLayer {
    this.#cancel();
    this.#records = records;
    const plan = planOf(records, ids);
    if (this.#plan?.key !== plan.key) this.drop();
    if (!this.#layer) this.#open(plan);
    // One React has not drawn: the drag moves what there is, and the set is lowered after it.
    if (!this.#liftNext(plan.ids.length)) this.#plan = { ...plan, key: '' };
    return this.#layer!;
  }

  /**
   * The store changed (called before React draws it): the lifted set stays only when React will not
   * move the scene's children (same records in the same order) and it still draws right as lifted.
   */
  storeChanged(records: readonly ComponentRecord[]): void {
    this.#elements = null;
    const before = this.#records;
    this.#records = records;
    if (!this.#layer || !this.#plan) return;
    const sameOrder = before.length === records.length && records.every((r, i) => r.id === before[i]!.id);
    const plan = planOf(records, new Set(this.#plan.ids));
    if (!sameOrder || !plan.safe || plan.key !== this.#plan.key) this.drop();
  }

  /** Puts everything back now. */
  drop(): void {
    this.#cancel();
    this.#layer?.drop();
    this.#layer = null;
    this.#plan = null;
  }

  dispose(): void {
    this.drop();
    this.#want = null;
  }

  #done(): boolean {
    return this.#want
      ? this.#plan?.key === this.#want.key && this.#layer!.size === this.#want.ids.length
      : !this.#layer;
  }

  #cancel(): void {
    if (this.#idle) (globalThis.cancelIdleCallback ?? clearTimeout)(this.#idle);
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#idle = 0;
    this.#frame = 0;
  }

  /**
   * One slice a frame. The browser pays a slice in the frame after it: the time between two ticks,
   * less a frame, sizes the next slice.
   */
  #tick = (now: number): void => {
    this.#frame = 0;
    if (this.#last > 0) {
      const cost = Math.max(1, now - this.#last - 1000 / 60) / this.#slice;
      this.#slice = Math.max(8, Math.min(400, Math.floor(sliceBudgetMs / cost)));
    }
    this.#last = now;
    if (!this.scene()) return;
    if (this.#layer && this.#plan?.key !== this.#want?.key) {
      this.#layer.lower(this.#slice);
      if (this.#layer.size === 0) this.drop();
    } else if (this.#want) {
      if (!this.#layer) this.#open(this.#want);
      if (!this.#liftNext(this.#slice)) this.#want = null;
    }
    if (!this.#done()) this.#frame = requestAnimationFrame(this.#tick);
  };

  #open(plan: Plan): void {
    this.#layer = new DragLayer(this.scene()!, plan.top);
    this.#plan = plan;
  }

  /** Lifts the next `count` of the plan, the topmost not yet lifted first; false when one is not drawn. */
  #liftNext(count: number): boolean {
    const layer = this.#layer!;
    const ids = this.#plan!.ids.slice(layer.size, layer.size + count);
    const elements = this.#elementMap();
    const found = ids.flatMap((id) => elements.get(id) ?? []);
    layer.lift(found.reverse());
    return found.length === ids.length;
  }

  #elementMap(): Map<string, HTMLElement> {
    if (!this.#elements) {
      this.#elements = new Map();
      for (const el of this.scene()?.querySelectorAll<HTMLElement>('[data-id]') ?? [])
        this.#elements.set(el.dataset.id!, el);
    }
    return this.#elements;
  }
}
