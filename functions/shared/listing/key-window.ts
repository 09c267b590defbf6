/**
 * Windows on an index's sort key: inclusive bounds, either side open. Every listing reads its
 * partitions through one: a time range, a prefix, what follows a cursor.
 */

/** Inclusive bounds on a sort key; an absent side is open. */
export interface KeyWindow {
  readonly lo?: string;
  readonly hi?: string;
}

/**
 * Sort keys compare as DynamoDB compares them (UTF-8 bytes, which is code point order); the keys of
 * this service are ASCII, where that is also JavaScript's string order.
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shiftLast(key: string, delta: number): string {
  return key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + delta);
}

/** The greatest string of a key's length below `key`: an inclusive bound meaning "before key". */
export function keyBefore(key: string): string {
  return shiftLast(key, -1);
}

/** The least string of a key's length above `key`: an inclusive bound meaning "after key". */
export function keyAfter(key: string): string {
  return shiftLast(key, 1);
}

/**
 * The window of every key that starts with `prefix`: from the prefix itself to the prefix followed
 * by the highest code point, which every key starting with the prefix sorts below (in DynamoDB's
 * UTF-8 byte order).
 */
export function prefixWindow(prefix: string): KeyWindow {
  return prefix === '' ? {} : { lo: prefix, hi: `${prefix}\u{10FFFF}` };
}

/** The keys both windows hold. */
export function intersectWindows(a: KeyWindow, b: KeyWindow): KeyWindow {
  const lo = a.lo === undefined ? b.lo : b.lo === undefined || a.lo > b.lo ? a.lo : b.lo;
  const hi = a.hi === undefined ? b.hi : b.hi === undefined || a.hi < b.hi ? a.hi : b.hi;
  return { ...(lo === undefined ? {} : { lo }), ...(hi === undefined ? {} : { hi }) };
}

/** Whether a window holds no key at all. */
export function isEmptyWindow(window: KeyWindow): boolean {
  return window.lo !== undefined && window.hi !== undefined && window.lo > window.hi;
}

/** The part of `window` that follows `after` in walk order (ascending: above it; descending: below it). */
export function windowAfter(window: KeyWindow, after: string | undefined, ascending: boolean): KeyWindow {
  if (after === undefined) return window;
  return intersectWindows(window, ascending ? { lo: keyAfter(after) } : { hi: keyBefore(after) });
}
