import { ValidationError } from '../errors';

/** A decoded query value: one string, or several when the key was repeated. */
export type QueryValue = string | string[];
/** A decoded query string: flat keys, and deepObject keys (`sort[field]`) grouped under their object. */
export type DecodedQuery = Record<string, QueryValue | Record<string, QueryValue>>;

const DEEP_OBJECT_KEY = /^([A-Za-z0-9_-]+)\[([A-Za-z0-9_-]+)\]$/;
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** Most values a single query key may carry; more is hostile or a client bug. */
export const MAX_QUERY_VALUES = 100;

function collapse(values: readonly string[]): QueryValue {
  return values.length === 1 ? (values[0] as string) : [...values];
}

/**
 * Decode a REST API proxy event's query into plain and deepObject parameters (DESIGN.md section 4):
 * `pagination[page]=2` → `{ pagination: { page: '2' } }`, `status=a&status=b` → `{ status: ['a', 'b'] }`.
 * Reads `multiValueQueryStringParameters`, which keeps repeated keys apart, falling back to
 * `queryStringParameters` for events that lack it (hand-written or replayed ones).
 */
export function decodeQuery(
  multi: Record<string, string[] | undefined> | null | undefined,
  single: Record<string, string | undefined> | null | undefined,
): DecodedQuery {
  const entries: [string, string[]][] = multi
    ? Object.entries(multi).map(([key, values]) => [key, values ?? []])
    : Object.entries(single ?? {}).map(([key, value]) => [key, value === undefined ? [] : [value]]);
  // A Map, not an object literal: keys such as `__proto__` or `valueOf` must stay plain keys.
  const decoded = new Map<string, QueryValue | Map<string, QueryValue>>();
  for (const [key, values] of entries) {
    if (values.length > MAX_QUERY_VALUES) {
      throw new ValidationError([{ name: key, reason: `At most ${MAX_QUERY_VALUES} values are accepted.` }]);
    }
    const deep = DEEP_OBJECT_KEY.exec(key);
    if (deep) {
      const [, object, property] = deep as unknown as [string, string, string];
      const existing = decoded.get(object) ?? new Map<string, QueryValue>();
      if (!(existing instanceof Map)) {
        throw new ValidationError([{ name: object, reason: 'Given both as a value and as an object.' }]);
      }
      decoded.set(object, existing.set(property, collapse(values)));
    } else if (PLAIN_KEY.test(key)) {
      if (decoded.has(key)) throw new ValidationError([{ name: key, reason: 'Given both as a value and as an object.' }]);
      decoded.set(key, collapse(values));
    } else {
      throw new ValidationError([{ name: key, reason: 'Unknown parameter.' }]);
    }
  }
  // Object.fromEntries defines own properties, so `__proto__` becomes an (unknown) parameter, not a prototype.
  return Object.fromEntries([...decoded].map(([key, value]) => [key, value instanceof Map ? Object.fromEntries(value) : value]));
}
