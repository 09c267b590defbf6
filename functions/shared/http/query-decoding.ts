import { ValidationError } from '../errors';

/** A decoded query value: one string, or several when the key was repeated. */
export type QueryValue = string | string[];
/** A decoded query string: flat keys, and deepObject keys (`sort[field]`) grouped under their object. */
export type DecodedQuery = Record<string, QueryValue | Record<string, QueryValue>>;

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;
/** `status[]` (axios' default) or `status[0]` (qs' `indices`): elements of the array `status`. */
const ARRAY_KEY = /^([A-Za-z0-9_-]+)\[(\d{0,2})\]$/;
/** `sort[field]`: a property of the object `sort` (deepObject); a property name starts with a letter. */
const DEEP_OBJECT_KEY = /^([A-Za-z0-9_-]+)\[([A-Za-z][A-Za-z0-9_-]*)\]$/;

/** Most values a single query parameter may carry, however it is written; more is hostile or a client bug. */
export const MAX_QUERY_VALUES = 100;

function collapse(values: readonly string[]): QueryValue {
  return values.length === 1 ? (values[0] as string) : [...values];
}

/** A parameter as the query wrote it: its values (an array's, in index order), or its object's properties. */
type Parameter = { readonly kind: 'values'; readonly parts: { order: number; values: string[] }[] } | { readonly kind: 'object'; readonly properties: Map<string, string[]> };

function conflict(name: string): ValidationError {
  return new ValidationError([{ name, reason: 'Given both as a value and as an object.' }]);
}

/**
 * Group the query's keys by parameter. A Map, not an object literal: keys such as `__proto__` or
 * `valueOf` must stay plain keys.
 */
function parametersOf(entries: readonly [string, string[]][]): Map<string, Parameter> {
  const parameters = new Map<string, Parameter>();
  const valuesOf = (name: string) => {
    const existing = parameters.get(name) ?? { kind: 'values', parts: [] };
    if (existing.kind !== 'values') throw conflict(name);
    parameters.set(name, existing);
    return existing;
  };
  for (const [key, values] of entries) {
    const array = ARRAY_KEY.exec(key);
    const deep = DEEP_OBJECT_KEY.exec(key);
    if (PLAIN_KEY.test(key)) valuesOf(key).parts.push({ order: -1, values });
    else if (array) valuesOf(array[1] as string).parts.push({ order: array[2] === '' ? -1 : Number(array[2]), values });
    else if (deep) {
      const [, name, property] = deep as unknown as [string, string, string];
      const existing = parameters.get(name) ?? { kind: 'object', properties: new Map<string, string[]>() };
      if (existing.kind !== 'object') throw conflict(name);
      existing.properties.set(property, [...(existing.properties.get(property) ?? []), ...values]);
      parameters.set(name, existing);
    } else throw new ValidationError([{ name: key, reason: 'Unknown parameter.' }]);
  }
  return parameters;
}

/**
 * Decode a REST API proxy event's query into plain and deepObject parameters (DESIGN.md section 4):
 * `pagination[page]=2` → `{ pagination: { page: '2' } }`; an array from repeated keys
 * (`status=a&status=b`), axios' brackets (`status[]=a&status[]=b`) or qs' indices
 * (`status[0]=a&status[1]=b`) → `{ status: ['a', 'b'] }`, all meaning the same query. Reads
 * `multiValueQueryStringParameters`, which keeps repeated keys apart, falling back to
 * `queryStringParameters` for events that lack it (hand-written or replayed ones).
 */
export function decodeQuery(
  multi: Record<string, string[] | undefined> | null | undefined,
  single: Record<string, string | undefined> | null | undefined,
): DecodedQuery {
  const entries: [string, string[]][] = multi
    ? Object.entries(multi).map(([key, values]) => [key, values ?? []])
    : Object.entries(single ?? {}).map(([key, value]) => [key, value === undefined ? [] : [value]]);
  const decoded: [string, QueryValue | Record<string, QueryValue>][] = [];
  for (const [name, parameter] of parametersOf(entries)) {
    if (parameter.kind === 'object') {
      for (const [property, values] of parameter.properties) {
        if (values.length > MAX_QUERY_VALUES) throw new ValidationError([{ name: `${name}[${property}]`, reason: `At most ${MAX_QUERY_VALUES} values are accepted.` }]);
      }
      decoded.push([name, Object.fromEntries([...parameter.properties].map(([property, values]) => [property, collapse(values)]))]);
      continue;
    }
    // Repeated and bracketed values keep their order; indexed ones follow in index order.
    const values = [...parameter.parts].sort((a, b) => a.order - b.order).flatMap((part) => part.values);
    if (values.length > MAX_QUERY_VALUES) throw new ValidationError([{ name, reason: `At most ${MAX_QUERY_VALUES} values are accepted.` }]);
    decoded.push([name, collapse(values)]);
  }
  // Object.fromEntries defines own properties, so `__proto__` becomes an (unknown) parameter, not a prototype.
  return Object.fromEntries(decoded);
}
