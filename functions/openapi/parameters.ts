import { requestHeadersOf, type RequestHeader, type RouteContract, type RouteOperation } from '../shared/http/route-definition';
import { IF_MATCH_PATTERN } from '../shared/http/if-match';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RETENTION_SECONDS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../shared/idempotency/idempotency-key';
import { exclusiveParameters, type ExclusiveParameters } from '../shared/validation/query-params';
import type { ComponentSchemas, JsonSchema } from './json-schema';

/** An OpenAPI parameter object. */
export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  readonly style?: 'simple' | 'form' | 'deepObject';
  readonly explode?: boolean;
  readonly schema: JsonSchema;
}

/** The properties of an object schema and which of them are required. */
function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return { properties, required: new Set((schema.required ?? []) as string[]) };
}

/** Path parameters, typed as the route decodes them (`user-id` is a whole number). */
export function pathParameters(contract: RouteContract, schemas: ComponentSchemas): ParameterObject[] {
  if (!contract.pathParameters) return [];
  const { properties } = propertiesOf(schemas.render(contract.pathParameters, 'output'));
  return Object.entries(properties).map(([name, schema]) => ({ name, in: 'path', required: true, style: 'simple', schema }));
}

/**
 * One query parameter, with the encoding the service decodes (DESIGN.md section 4): objects in the
 * deepObject style (`sort[field]=email&sort[order]=desc`), arrays as repeated keys, a comma list,
 * brackets (axios' default) or indices (qs' `indices`), all meaning the same query.
 */
function queryParameter(name: string, schema: JsonSchema, required: boolean): ParameterObject {
  if (schema.type === 'object') {
    const keys = Object.keys((schema.properties ?? {}) as Record<string, unknown>).map((key) => `\`${name}[${key}]\``);
    const meaning = typeof schema.description === 'string' ? ` ${schema.description}` : '';
    return { name, in: 'query', required, style: 'deepObject', explode: true, description: `An object in the deepObject style: ${keys.join(', ')}.${meaning}`, schema };
  }
  if (schema.type === 'array') {
    const description = [
      `Repeat the key (\`${name}=a&${name}=b\`), separate the values by commas (\`${name}=a,b\`),`,
      `or write them with brackets (\`${name}[]=a&${name}[]=b\`) or indices (\`${name}[0]=a&${name}[1]=b\`): all mean the same.`,
    ].join(' ');
    return { name, in: 'query', required, style: 'form', explode: true, description, schema };
  }
  return { name, in: 'query', required, style: 'form', explode: true, schema };
}

/**
 * A group of parameters of which a request gives at most one, as the one object parameter that
 * states it (see {@link ExclusiveParameters}), in the form style: each member is sent as a
 * parameter of its own.
 */
function exclusiveParameter(group: ExclusiveParameters, properties: Record<string, JsonSchema>): ParameterObject {
  const members = group.members.map((member) => `\`${member}\``).join(', ');
  return {
    name: group.name,
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description: `At most one of ${members}, each sent as a parameter of its own (\`${group.members[0]}=…\`); together they are a 400.`,
    schema: { type: 'object', properties: Object.fromEntries(group.members.map((member) => [member, properties[member]])), additionalProperties: false, maxProperties: 1 },
  };
}

/**
 * Query parameters, typed as the route decodes them; any other parameter is answered 400. A group
 * of mutually exclusive ones is one object parameter, where its first member would be.
 */
export function queryParameters(contract: RouteContract, schemas: ComponentSchemas): ParameterObject[] {
  if (!contract.query) return [];
  const { properties, required } = propertiesOf(schemas.render(contract.query, 'output'));
  const group = exclusiveParameters.get(contract.query);
  return Object.entries(properties).flatMap(([name, schema]): ParameterObject[] => {
    if (group === undefined || !group.members.includes(name)) return [queryParameter(name, schema, required.has(name))];
    return name === group.members[0] ? [exclusiveParameter(group, properties)] : [];
  });
}

/** What each request header means, and the rule its value follows. */
const HEADERS: Readonly<Record<RequestHeader, { readonly description: string; readonly schema: JsonSchema }>> = {
  'If-Match': {
    description:
      '`*`, or the ETag of a previous read (a comma-separated list of entity tags is accepted, RFC 9110): the request is refused with 412 ' +
      'unless one of them is the current ETag (compared strongly: a weak `W/"…"` tag never matches). A value that is not this syntax is a 400, ' +
      'an empty one included: leave the header out to update unconditionally.',
    schema: { type: 'string', pattern: IF_MATCH_PATTERN },
  },
  'Idempotency-Key': {
    description: [
      'Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted',
      `string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, e.g. \`"8e03978e-40d5-43e8-bc93-6894a57f9324"\`; send a new one`,
      'with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays',
      'the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422',
      '(`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are',
      `the caller's own (another user's equal key is another key) and kept ${IDEMPOTENCY_KEY_RETENTION_SECONDS / 3600} hours. A failed request keeps`,
      'nothing: its retry runs again. A value that is not such a string is a 400.',
    ].join(' '),
    schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
  },
};

/** Request headers the route reads besides Authorization. */
export function headerParameters(route: RouteOperation): ParameterObject[] {
  return requestHeadersOf(route).map((name) => ({ name, in: 'header', required: false, ...HEADERS[name] }));
}
