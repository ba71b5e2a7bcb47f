/**
 * Equal strings of one read held once: items of one template repeat their names on every device
 * (issue 18, memory per item: 100 000 names were ~2.4 MB). At most `limit` distinct ones are
 * looked up, so an estate of distinct names pays no large map.
 */
export const stringSharer = (limit = 10_000) => {
  const known = new Map<string, string>();
  return (text: string): string => {
    const held = known.get(text);
    if (held !== undefined) return held;
    if (known.size < limit) known.set(text, text);
    return text;
  };
};
