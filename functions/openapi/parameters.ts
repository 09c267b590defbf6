import type { RouteContract } from '../shared/http/route-definition';
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
    return { name, in: 'query', required, style: 'deepObject', explode: true, description: `An object in the deepObject style: ${keys.join(', ')}.`, schema };
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

/** Query parameters, typed as the route decodes them; any other parameter is answered 400. */
export function queryParameters(contract: RouteContract, schemas: ComponentSchemas): ParameterObject[] {
  if (!contract.query) return [];
  const { properties, required } = propertiesOf(schemas.render(contract.query, 'output'));
  return Object.entries(properties).map(([name, schema]) => queryParameter(name, schema, required.has(name)));
}

const HEADER_DESCRIPTIONS: Readonly<Record<NonNullable<RouteContract['requestHeaders']>[number], string>> = {
  'If-Match':
    '`*`, or the ETag of a previous read (a comma-separated list of entity tags is accepted, RFC 9110): the request is refused with 412 ' +
    'unless one of them is the current ETag (compared strongly: a weak `W/"…"` tag never matches). A value that is not this syntax is a 400.',
};

/** Request headers the route reads besides Authorization. */
export function headerParameters(contract: RouteContract): ParameterObject[] {
  return (contract.requestHeaders ?? []).map((name) => ({
    name,
    in: 'header',
    required: false,
    description: HEADER_DESCRIPTIONS[name],
    schema: { type: 'string' },
  }));
}
