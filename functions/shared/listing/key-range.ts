/**
 * Half-open ranges of an index's sort keys, `[from, to)`: every listing reads its partitions
 * through one (a time range, a name prefix, what a cursor leaves of a walk), and a walk's position
 * is one edge of such a range. Bounds are converted to a key condition in one place only
 * (index-query.ts); nowhere else is a bound shifted by a millisecond or a character.
 */

/** Sort keys from `from` (inclusive) up to `to` (exclusive); an absent side is open. */
export interface KeyRange {
  readonly from?: string;
  readonly to?: string;
}

/**
 * Sort keys compare as DynamoDB compares them (UTF-8 bytes, which is code point order); the keys of
 * this service are ASCII, where that is also JavaScript's string order.
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The least string above `key`: no key lies between them (an inclusive bound meaning "after `key`"). */
export function successor(key: string): string {
  return `${key}\u0000`;
}

/**
 * The greatest sort key below `to`, for DynamoDB's inclusive `BETWEEN`: exact for a successor
 * (`k\0` gives `k`), and otherwise the string of `to`'s length one below it in its last character,
 * which is exact for the keys of this service: a key either has one length throughout its index
 * (send keys), or `to` is a shorter prefix-like bound (an instant, a bucket) that no key continues.
 */
export function lastKeyBefore(to: string): string {
  if (to.endsWith('\u0000')) return to.slice(0, -1);
  return to.slice(0, -1) + String.fromCharCode(to.charCodeAt(to.length - 1) - 1);
}

/**
 * The range of every key that starts with `prefix`: from the prefix itself to the prefix followed
 * by the highest code point, which every key starting with the prefix sorts below (in DynamoDB's
 * UTF-8 byte order).
 */
export function prefixRange(prefix: string): KeyRange {
  return prefix === '' ? {} : { from: prefix, to: `${prefix}\u{10FFFF}` };
}

/** The keys both ranges hold. */
export function intersectRanges(a: KeyRange, b: KeyRange): KeyRange {
  const from = a.from === undefined ? b.from : b.from === undefined || a.from > b.from ? a.from : b.from;
  const to = a.to === undefined ? b.to : b.to === undefined || a.to < b.to ? a.to : b.to;
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Whether a range holds no key at all. */
export function isEmptyRange(range: KeyRange): boolean {
  return range.from !== undefined && range.to !== undefined && range.from >= range.to;
}

/**
 * Where a walk stands is an edge: the keys it has still to read lie at the edge and beyond, in walk
 * order. Walking up, that is from the edge on (inclusive); walking down, below it (exclusive), so
 * both directions resume without shifting a key.
 */

/** The edge after `key` in walk order: `key` itself is behind the walk. */
export function edgeAfter(key: string, ascending: boolean): string {
  return ascending ? successor(key) : key;
}

/** The edge at `key` in walk order: `key` is still ahead of the walk. */
export function edgeAt(key: string, ascending: boolean): string {
  return ascending ? key : successor(key);
}

/** Whether edge `a` lies before edge `b` in walk order (the walk reaches it first). */
export function edgeBefore(a: string, b: string, ascending: boolean): boolean {
  return ascending ? a < b : a > b;
}

/** What remains of `range` for a walk that stands at `edge` (all of it when the walk has not started). */
export function rangeFrom(range: KeyRange, edge: string | undefined, ascending: boolean): KeyRange {
  if (edge === undefined) return range;
  return intersectRanges(range, ascending ? { from: edge } : { to: edge });
}
