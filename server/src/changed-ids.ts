/**
 * A set of item ids marked by a flag per id (ids are row ids: dense, from 1), for the ids changed
 * since the last look (the live feed's round, the item rows' write): ~100 000 values a second mark
 * theirs with an array write, where a Set hashed each one and grew its table again after each
 * clear. Ids past `flagLimit` (a sparse estate) go to a Set.
 */
const flagLimit = 1 << 24;
export const createChangedIds = () => {
  let flags = new Uint8Array(1024);
  let list: number[] = [];
  const far = new Set<number>();
  return {
    add(id: number) {
      if (id >= 0 && id < flagLimit && Number.isInteger(id)) {
        if (id >= flags.length) {
          const grown = new Uint8Array(Math.min(flagLimit, Math.max(id + 1, flags.length * 2)));
          grown.set(flags);
          flags = grown;
        }
        if (flags[id] === 1) return;
        flags[id] = 1;
        list.push(id);
      } else far.add(id);
    },
    get size() {
      return list.length + far.size;
    },
    /** The ids marked since the last take, and forgets them. */
    take(): number[] {
      const ids = list;
      list = [];
      for (const id of ids) flags[id] = 0;
      for (const id of far) ids.push(id);
      far.clear();
      return ids;
    },
  };
};

export type ChangedIds = ReturnType<typeof createChangedIds>;
