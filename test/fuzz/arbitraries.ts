import fc from 'fast-check';
import { openApiDocument } from '../../functions/openapi/document';
import type { RouteDefinition } from '../../functions/shared/http/route-definition';
import { operationOf } from '../harness/contract';

/**
 * Request parts for the fuzzer, drawn from what the OpenAPI document says a route takes: the
 * documented parameter names and values (enums, integer bounds, formats) mixed with values no
 * client should send, so that the runs reach deep into validation and the handlers.
 */

type Schema = Record<string, any>;
type Parameter = { name: string; in: string; style?: string; schema: Schema };

/** A member of an object parameter as the query spells it: `name[member]` in the deepObject style, `member` alone in the form style. */
function memberKey(parameter: Parameter, member: string): string {
  return parameter.style === 'form' ? member : `${parameter.name}[${member}]`;
}

const LOOPBACK_STAND_IN = 'http://127.0.0.1:9/fuzzed.png';

/**
 * `value` with every string that parses as a URL off loopback replaced by a loopback one, which
 * the avatar fetch refuses (not on its allow list) without resolving or connecting: made-up URLs
 * must not even send a DNS query.
 */
export function keepUrlsOnLoopback(value: unknown): unknown {
  if (typeof value === 'string') {
    const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
    return url && url.hostname !== '' && url.hostname !== '127.0.0.1' ? LOOPBACK_STAND_IN : value;
  }
  if (Array.isArray(value)) return value.map(keepUrlsOnLoopback);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, keepUrlsOnLoopback(item)]));
  }
  return value;
}

function resolve(schema: Schema): Schema {
  const ref = schema.$ref as string | undefined;
  return ref ? resolve(openApiDocument().components.schemas[ref.split('/').pop() as string] as Schema) : schema;
}

const text = fc.string({ unit: 'grapheme', maxLength: 24 });

/**
 * Percent-encoded garbage, sent as it is: escapes of any byte (so invalid UTF-8 such as a lone
 * `%C3`), truncated and non-hex escapes, mixed with the characters a cursor or an id is made of.
 */
const percentGarbage = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`),
      fc.constantFrom('%', '%Z', '%C3', '%E2%82', '%F0%9F', '%00', 'a', '.', '-', '_'),
    ),
    { minLength: 1, maxLength: 16 },
  )
  .map((parts) => parts.join(''));

/**
 * Hostile text (issue 16, item 6): non-ASCII (any code point, control and bidi characters among
 * them) and over-long values. Sent percent-encoded, so they reach the parameter intact.
 */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('é', '€', '𝄞', '\u0000', '\u202e', '\ufeff', 'ß', '١'), minLength: 1, maxLength: 40 }),
  fc.tuple(fc.constantFrom('a', '9', 'é', '%'), fc.integer({ min: 1_000, max: 8_000 })).map(([unit, length]) => unit.repeat(length)),
);

const oddNumbers = fc.constantFrom('0', '-1', '1.5', '1e3', '0x10', ' 1', '9007199254740993', '', '٣');

/** Values of a JSON Schema, mostly valid, sometimes any JSON at all. */
export function valueOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  const noise = fc.jsonValue({ maxDepth: 2 });
  const typed = typedValue(resolved, depth);
  return depth > 3 ? noise : fc.oneof({ arbitrary: typed, weight: 5 }, { arbitrary: noise, weight: 1 });
}

function typedValue(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map((option) => valueOf(option, depth + 1)));
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, item]) => [key, valueOf(item, depth + 1)])), { requiredKeys: [] });
      return fc.tuple(record, fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 1 })).map(([known, extra]) => ({ ...extra, ...known }));
    }
    case 'array':
      return fc.array(valueOf((schema.items ?? {}) as Schema, depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER) }), fc.integer(), fc.double());
    case 'number':
      return fc.double();
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'uri') return fc.oneof(fc.webUrl(), text);
      if (schema.format === 'uuid') return fc.oneof(fc.uuid(), text);
      if (schema.format === 'date-time') return fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), text);
      return fc.oneof(text, fc.string({ maxLength: 300 }));
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A query value as text: from the parameter's schema (array items, enums, bounds) or odd. */
function queryValue(schema: Schema): fc.Arbitrary<string> {
  const resolved = resolve(schema);
  const item = resolved.type === 'array' ? resolve(resolved.items as Schema) : resolved;
  const typed = valueOf(item).map((value) => (typeof value === 'string' ? value : JSON.stringify(value) ?? ''));
  const list = fc.array(typed, { minLength: 2, maxLength: 3 }).map((values) => values.join(','));
  return fc.oneof({ arbitrary: typed, weight: 4 }, list, oddNumbers, text);
}

function parametersOf(route: RouteDefinition, location: string): Parameter[] {
  return (operationOf(route.name).parameters ?? []).filter((parameter) => parameter.in === location) as Parameter[];
}

/** One `key=value` pair of a query string: documented keys (deepObject members included), others, odd ones. */
function queryPair(route: RouteDefinition): fc.Arbitrary<[string, string]> {
  const parameters = parametersOf(route, 'query');
  const pairs: fc.Arbitrary<[string, string]>[] = [
    fc.tuple(text, text),
    fc.tuple(fc.constantFrom('a[b][c]', '[x]', 'sort[]', 'pagination', '%zz', '', 'user-id[0]'), text),
  ];
  for (const parameter of parameters) {
    const schema = resolve(parameter.schema);
    if (schema.type === 'object') {
      const members = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      for (const [member, memberSchema] of members) pairs.push(fc.tuple(fc.constant(memberKey(parameter, member)), queryValue(memberSchema)));
      pairs.push(fc.tuple(text.map((member) => `${parameter.name}[${member}]`), text));
    }
    pairs.push(fc.tuple(fc.constant(parameter.name), queryValue(schema)));
  }
  return fc.oneof(...pairs);
}

/** Every documented query key of the route, deepObject members spelled out. */
function queryKeys(route: RouteDefinition): string[] {
  return parametersOf(route, 'query').flatMap((parameter) => {
    const schema = resolve(parameter.schema);
    const members = schema.type === 'object' ? Object.keys((schema.properties ?? {}) as Record<string, Schema>) : [];
    return [parameter.name, ...members.map((member) => memberKey(parameter, member))];
  });
}

/**
 * A documented key with a hostile value, as a raw `key=value` pair: hostile text encoded, garbage
 * as it is, or a cursor-shaped value whose MAC part is garbage.
 */
function hostilePair(route: RouteDefinition): fc.Arbitrary<string> {
  const keys = queryKeys(route);
  const key = keys.length > 0 ? fc.constantFrom(...keys) : text;
  const value = fc.oneof(hostileText.map(encodeURIComponent), percentGarbage, percentGarbage.map((garbage) => `abc.${garbage}`));
  return fc.tuple(key, value).map(([name, raw]) => `${name}=${raw}`);
}

/** A raw query string for the route: a few pairs, keys sent raw or percent-encoded, hostile values, or pure noise. */
export function queryString(route: RouteDefinition): fc.Arbitrary<string> {
  const pair = fc.tuple(queryPair(route), fc.boolean()).map(([[key, value], raw]) => `${raw ? key : encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  const anyPair = fc.oneof({ arbitrary: pair, weight: 4 }, { arbitrary: hostilePair(route), weight: 1 });
  const encoded = fc.array(anyPair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
  const noise = fc.string({ maxLength: 40 });
  return fc.oneof({ arbitrary: encoded, weight: 6 }, noise);
}

/** Path parameters: known ids among the documented type's values, and any text at all. */
export function pathParameters(route: RouteDefinition, knownIds: readonly number[]): fc.Arbitrary<Record<string, string>> {
  const parameters = parametersOf(route, 'path');
  const value = (schema: Schema): fc.Arbitrary<string> =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...knownIds).map(String), weight: 8 },
      { arbitrary: queryValue(schema), weight: 3 },
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
      fc.constantFrom('current', '..', '.', '%', '1/2', ' '),
      hostileText,
    );
  return fc.record(Object.fromEntries(parameters.map((parameter) => [parameter.name, value(parameter.schema)])));
}

/** `value` one time in `outOf`, otherwise nothing. */
function now(value: fc.Arbitrary<string>, outOf: number): fc.Arbitrary<string | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: outOf - 1 }, { arbitrary: value, weight: 1 });
}

/**
 * Request headers, each now and then (most requests keep the JSON content type `invoke` sets, so
 * that bodies reach validation): If-Match, Idempotency-Key, Content-Type and Accept,
 * documented-looking or not.
 */
export const headers: fc.Arbitrary<Record<string, string>> = fc
  .record({
    'If-Match': now(fc.oneof(fc.constantFrom('"1"', '"0"', '*', 'W/"1"', '""'), fc.string({ unit: 'grapheme-ascii', maxLength: 20 })), 4),
    'Idempotency-Key': now(
      fc.oneof(
        fc.uuid().map((uuid) => `"${uuid}"`),
        fc.constantFrom('""', 'key', '"a\\"b"', `"${'k'.repeat(256)}"`),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
      ),
      4,
    ),
    'Content-Type': now(
      fc.oneof(
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'text/plain', 'multipart/form-data', ''),
        fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
      ),
      8,
    ),
    Accept: now(fc.constantFrom('application/json', 'text/html', '*/*'), 4),
  })
  .map((picked) => Object.fromEntries(Object.entries(picked).filter((entry): entry is [string, string] => entry[1] !== undefined)));

/** A body: one of the route's documented shape (with strangers mixed in), any JSON, raw text, or none. */
export function body(route: RouteDefinition): fc.Arbitrary<{ body?: unknown; rawBody?: string; headers?: Record<string, string> }> {
  const schema = (operationOf(route.name) as { requestBody?: { content: Record<string, { schema: Schema }> } }).requestBody?.content['application/json']?.schema;
  const raw = fc.string({ maxLength: 60 }).map((value) => {
    // Raw text that happens to be JSON goes through the same URL guard as generated bodies.
    try {
      return { rawBody: JSON.stringify(keepUrlsOnLoopback(JSON.parse(value))) };
    } catch {
      return { rawBody: value };
    }
  });
  // Sent as JSON unless the headers say otherwise, so that the JSON parser gets to see it.
  const rawJson = raw.map((part) => ({ ...part, headers: { 'Content-Type': 'application/json' } }));
  const json = fc.jsonValue({ maxDepth: 3 }).map((value) => ({ body: keepUrlsOnLoopback(value) }));
  if (!schema) return fc.oneof({ arbitrary: fc.constant({}), weight: 6 }, json, raw, rawJson);
  const documented = valueOf(schema).map((value) => ({ body: keepUrlsOnLoopback(value) }));
  return fc.oneof({ arbitrary: documented, weight: 6 }, { arbitrary: json, weight: 2 }, raw, rawJson, fc.constant({}));
}
