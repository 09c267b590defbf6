import { routes } from '../routes';
import { API_PREFIX, type RouteDefinition, type RouteDocs } from '../shared/http/route-definition';
import { ComponentSchemas, type JsonSchema } from './json-schema';
import { FEED_SCHEMAS } from './schema-names';
import { LIVE_MESSAGE_SCHEMAS } from '../live/model/live-messages';
import { headerParameters, pathParameters, queryParameters } from './parameters';
import { errorResponses, JSON_MEDIA_TYPE, successResponse } from './responses';

/** The OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
  readonly components: { readonly schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

/** Name of the bearer security scheme. */
export const BEARER_SCHEME = 'bearerAuth';

/** Port of the local gateway when PORT is not set (DESIGN.md section 8). */
const LOCAL_PORT = '3000';

const TAG_DESCRIPTIONS: Readonly<Record<RouteDocs['tag'], string>> = {
  Users: 'User profiles and the list of users the caller manages.',
  Avatars: 'Avatar upload (fetched from an address, cropped, stored) and removal.',
  'Media log': 'The log of media requests, filtered, sorted and paginated.',
  'API description': 'This document.',
};

const DESCRIPTION = [
  'User profiles, avatars and the log of media requests behind the web frontend.',
  '',
  'Every operation but this document takes `Authorization: Bearer <JWT>`. A missing, invalid or expired token is a 401',
  'with `WWW-Authenticate: Bearer error="invalid_token"`; a suspended account gets 403 on every route. A resource',
  'outside the caller\'s scope answers 404, exactly like one that does not exist.',
  '',
  'Every error is an RFC 9457 `application/problem+json` body with a stable `code`; a 400 lists each invalid',
  'parameter or field in `errors`. Unknown query parameters and body fields are refused, never ignored.',
  '',
  'Query objects use the deepObject style (`pagination[page]=2&sort[field]=send`); arrays repeat the key',
  '(`status=a&status=b`) or separate values by commas.',
  '',
  'The media log is written by the media pipeline through the `MediaLogEvents` SQS queue, not through this API: each',
  'message body is a `FeedMessage` (components/schemas), either a `MediaRequestMessage` (a new request; absent',
  'statuses are `pending`) or a `StatusMessage` (one status field of one entry changed at `at`). Delivery is at least',
  'once and in any order: a repeated message changes nothing, the latest `at` of each field wins (the greater value on',
  'a tie), a status for an entry not stored yet is retried, and a message over 256 KiB or not matching the schema',
  'goes to the dead-letter queue. So does a `send` or `at` more than 5 minutes ahead of the service\'s clock (it would',
  'freeze a status: every later real change would look older), and any date-time that falls outside the years',
  '0000-9999 once normalized to UTC (`9999-12-31T23:59:59-01:00`), here and in every query.',
].join('\n');

function operation(route: RouteDefinition, path: string, schemas: ComponentSchemas): Record<string, unknown> {
  const { contract, docs } = route;
  const parameters = [...pathParameters(contract, schemas), ...queryParameters(contract, schemas), ...headerParameters(route)];
  return {
    operationId: route.name,
    tags: [docs.tag],
    summary: docs.summary,
    description: docs.description,
    security: route.auth === 'bearer' ? [{ [BEARER_SCHEME]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(contract.body
      ? { requestBody: { required: true, content: { [JSON_MEDIA_TYPE]: { schema: schemas.render(contract.body, 'input') } } } }
      : {}),
    responses: { ...successResponse(route, schemas), ...errorResponses(route, path, schemas) },
  };
}

/**
 * The OpenAPI 3.1 document of `table` (by default the route table): every route's operation with
 * its parameters, body and answers, all schemas generated from the routes' zod contracts.
 */
export function buildOpenApiDocument(table: readonly RouteDefinition[] = routes): OpenApiDocument {
  const schemas = new ComponentSchemas();
  for (const [schema] of FEED_SCHEMAS) schemas.reference(schema, 'input');
  // The live media log's messages, as a client receives them on its WebSocket.
  for (const [schema] of LIVE_MESSAGE_SCHEMAS) schemas.reference(schema, 'output');
  const paths: OpenApiDocument['paths'] = {};
  for (const route of table) {
    const path = `${API_PREFIX}${route.path}`;
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path, schemas);
  }
  const tags = [...new Set(table.map((route) => route.docs.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] }));
  return {
    openapi: '3.1.0',
    info: { title: 'Frontend API', version: API_PREFIX.slice(API_PREFIX.lastIndexOf('/') + 1), description: DESCRIPTION },
    servers: [
      { url: 'http://127.0.0.1:{port}', description: 'The local gateway (`npm start`).', variables: { port: { default: LOCAL_PORT } } },
      { url: 'https://{host}', description: 'A deployed stage.', variables: { host: { default: 'api.example.com' } } },
    ],
    tags,
    paths,
    components: {
      schemas: schemas.all(),
      securitySchemes: {
        [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the configured issuer, sent as `Authorization: Bearer <token>` spelled exactly so (one space, the scheme as written): any other spelling is a 401, so that one token counts once against the per-token limit.' },
      },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document of the route table, built once per process. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}
