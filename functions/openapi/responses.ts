import type { RouteDefinition } from '../shared/http/route-definition';
import { PROBLEM_MEDIA_TYPE, problemHeaders } from '../shared/http/problem-catalog';
import { errorAnswers } from './error-answers';
import type { ComponentSchemas, JsonSchema } from './json-schema';
import { ProblemSchema } from './problem-schema';

/** An OpenAPI response object. */
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, { readonly description: string; readonly required: boolean; readonly schema: JsonSchema; readonly example?: string }>;
  readonly content?: Record<string, { readonly schema: JsonSchema; readonly examples?: Record<string, { readonly summary: string; readonly value: unknown }> }>;
}

/** Media type of every success body. */
export const JSON_MEDIA_TYPE = 'application/json';

const HEADERS = {
  ETag: {
    description: 'Version of the resource: send it as If-Match to update only this version.',
    required: true,
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'RFC 6750: the token is missing, invalid or expired.',
    required: true,
    schema: { type: 'string' },
    example: problemHeaders('unauthorized')['WWW-Authenticate'],
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Cache-Control': {
    description: '`no-store`: the answer carries personal data that no cache may keep.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
} as const;

function headersOf(names: readonly (keyof typeof HEADERS)[]): ResponseObject['headers'] {
  return names.length === 0 ? undefined : Object.fromEntries(names.map((name) => [name, HEADERS[name]]));
}

/** The success response of a route: status, its schema as the API returns it, and its headers. */
export function successResponse(route: RouteDefinition, schemas: ComponentSchemas): Record<string, ResponseObject> {
  const { success } = route.docs;
  const names = [...(success.headers ?? []), ...(route.auth === 'bearer' ? (['Cache-Control'] as const) : [])];
  const response: ResponseObject = {
    description: success.description,
    ...(names.length > 0 ? { headers: headersOf(names) } : {}),
    ...(success.schema ? { content: { [JSON_MEDIA_TYPE]: { schema: schemas.render(success.schema, 'output') } } } : {}),
  };
  return { [String(success.status)]: response };
}

/** Every error response of a route as `application/problem+json`, with the Problem schema and examples. */
export function errorResponses(route: RouteDefinition, path: string, schemas: ComponentSchemas): Record<string, ResponseObject> {
  const problem = schemas.reference(ProblemSchema, 'output');
  return Object.fromEntries(
    errorAnswers(route, path).map((answer) => {
      const examples = Object.fromEntries(
        Object.entries(answer.examples).map(([name, value]) => [name, { summary: value.detail, value }]),
      );
      const response: ResponseObject = {
        description: answer.description,
        ...(answer.headers.length > 0 ? { headers: headersOf(answer.headers) } : {}),
        content: { [PROBLEM_MEDIA_TYPE]: { schema: problem, ...(Object.keys(examples).length > 0 ? { examples } : {}) } },
      };
      return [String(answer.status), response];
    }),
  );
}
