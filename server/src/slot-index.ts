/**
 * The slot of each item id, for the collector's and the alarm engine's struct-of-arrays state.
 * Database ids count up from 1, so while they stay dense the index is a typed array indexed by id
 * (4 bytes per id up to the largest); a Map of 100 000 entries held ~37 bytes each (3.7 MB; issue
 * 18, memory per item). Any id under 2^20 has its place (a 4 MB table at most: the collector gives
 * slots in poll order, so the first id may be any); past that, an id over 4 times the count, or
 * one negative or not whole, turns the index into a Map for good.
 */
/** Ids below this always fit the table. */
const denseIds = 1 << 20;

export class SlotIndex {
  /** Slot + 1 by id (0: none), while dense. */
  private table = new Int32Array(0);
  private map: Map<number, number> | null = null;
  private count = 0;

  get size(): number {
    return this.map ? this.map.size : this.count;
  }

  get(id: number): number | undefined {
    if (this.map) return this.map.get(id);
    const s = this.table[id] ?? 0; // undefined past the end, and for ids negative or not whole
    return s === 0 ? undefined : s - 1;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, slot: number): void {
    if (!this.map && !this.fits(id)) this.toMap();
    if (this.map) {
      this.map.set(id, slot);
      return;
    }
    if (this.table[id] === 0) this.count += 1;
    this.table[id] = slot + 1;
  }

  delete(id: number): boolean {
    if (this.map) return this.map.delete(id);
    if (this.get(id) === undefined) return false;
    this.table[id] = 0;
    this.count -= 1;
    return true;
  }

  *keys(): IterableIterator<number> {
    if (this.map) {
      yield* this.map.keys();
      return;
    }
    for (let id = 0; id < this.table.length; id++) if (this.table[id] !== 0) yield id;
  }

  /** Whether `id` has (or can be given, growing the table) a place in the dense table. */
  private fits(id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) return false;
    if (id < this.table.length) return true;
    if (id >= Math.max(denseIds, 4 * (this.count + 1))) return false;
    // Grown by half at least, so a start-up that adds ids in order copies the table a few times only.
    const next = new Int32Array(Math.max(id + 1, this.table.length + (this.table.length >> 1), 1024));
    next.set(this.table);
    this.table = next;
    return true;
  }

  private toMap(): void {
    const map = new Map<number, number>();
    for (const id of this.keys()) map.set(id, this.get(id)!);
    this.map = map;
    this.table = new Int32Array(0);
    this.count = 0;
  }
}
