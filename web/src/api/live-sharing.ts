import { replaceEqualDeep } from '@tanstack/react-query';

/**
 * Answers made by a live patch (live.ts). A patch already keeps every unchanged part of the old
 * answer, so the query client's structural sharing (a deep comparison of old and new) is skipped for
 * them: on a site picture of 2 000 components it was most of the browser's work for each live message.
 * Apart from live.ts so the query client, which the login page loads, does not carry the push client.
 */
const patched = new WeakSet<object>();
export const markPatched = (answer: object) => patched.add(answer);
export const liveStructuralSharing = (old: unknown, next: unknown): unknown =>
  typeof next === 'object' && next !== null && patched.has(next) ? next : replaceEqualDeep(old, next);
