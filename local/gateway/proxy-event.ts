import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { LOCAL_REGION } from '../local-defaults';
import type { RouteMatch } from './route-matcher';

/** An HTTP request as the local gateway (or `invoke --generate-event`) receives it. */
export interface LocalRequest {
  readonly method: string;
  /** Path without the query string, e.g. `/frontend/api/v1/user/7`. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly rawQuery: string;
  /** Header name/value pairs in arrival order; repeated names stay apart. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  readonly sourceIp: string;
  /**
   * API Gateway's id of this request (local/gateway/request-id.ts): the gateway sets it once, so
   * the authorizer's event and the route's carry the same; an event built without one gets its own.
   */
  readonly requestId?: string;
}

/** The stage name locally; deployed stages are named by the stack. */
export const LOCAL_STAGE = 'local';
const ACCOUNT_ID = '123456789012';
const API_ID = 'localapi';
const REGION = process.env.AWS_REGION ?? LOCAL_REGION;

/** Content types API Gateway passes as text; anything else arrives base64-encoded. */
const TEXT_MEDIA_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml)|application\/x-www-form-urlencoded)/i;

type Single = Record<string, string>;
type Multi = Record<string, string[]>;

/** Headers as API Gateway gives them: the last value per name, and every value in multiValueHeaders. */
/** Group values by name in arrival order; a Map keeps names such as `__proto__` or `valueOf` plain. */
function grouped(pairs: Iterable<readonly [string, string]>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [name, value] of pairs) groups.set(name, [...(groups.get(name) ?? []), value]);
  return groups;
}

/** API Gateway's two views of repeated names: the last value per name, and every value. */
function lastAndAll(groups: Map<string, string[]>): { single: Single; multi: Multi } {
  return {
    single: Object.fromEntries([...groups].map(([name, values]) => [name, values.at(-1) as string])),
    multi: Object.fromEntries(groups),
  };
}

/** Headers as API Gateway gives them: the last value per name, and every value in multiValueHeaders. */
export function headerMaps(pairs: LocalRequest['headers']): { headers: Single; multiValueHeaders: Multi } {
  const { single, multi } = lastAndAll(grouped(pairs));
  return { headers: single, multiValueHeaders: multi };
}

/** Query parameters as API Gateway gives them: decoded, last value per key, all values in the multi map. */
export function queryMaps(rawQuery: string): { single: Single | null; multi: Multi | null } {
  const groups = grouped(new URLSearchParams(rawQuery));
  return groups.size === 0 ? { single: null, multi: null } : lastAndAll(groups);
}

function bodyOf(request: LocalRequest, contentType: string | undefined): { body: string | null; isBase64Encoded: boolean } {
  if (request.body.byteLength === 0) return { body: null, isBase64Encoded: false };
  if (contentType !== undefined && TEXT_MEDIA_TYPE.test(contentType)) return { body: request.body.toString('utf8'), isBase64Encoded: false };
  return { body: request.body.toString('base64'), isBase64Encoded: true };
}

function headerValue(headers: Single, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** `arn:aws:execute-api:…/{stage}/{METHOD}/{path}` of a request, as the authorizer event carries it. */
export function methodArn(method: string, path: string): string {
  return `arn:aws:execute-api:${REGION}:${ACCOUNT_ID}:${API_ID}/${LOCAL_STAGE}/${method}${path}`;
}

/**
 * The REST API Lambda-proxy event for a request, in the shape AWS sends. The one event builder:
 * the local gateway, `invoke --generate-event` and the tests' harness all use it.
 */
export function buildProxyEvent(
  request: LocalRequest,
  match: RouteMatch,
  authorizer: Record<string, string | number | boolean> | null,
  now = new Date(),
): APIGatewayProxyEvent {
  const { headers, multiValueHeaders } = headerMaps(request.headers);
  const { single, multi } = queryMaps(request.rawQuery);
  const { body, isBase64Encoded } = bodyOf(request, headerValue(headers, 'content-type'));
  const requestId = request.requestId ?? randomUUID();
  return {
    resource: match.resource,
    path: request.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: single,
    multiValueQueryStringParameters: multi,
    pathParameters: match.pathParameters,
    stageVariables: null,
    body,
    isBase64Encoded,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer: authorizer === null ? null : { ...authorizer, principalId: String(authorizer.userId ?? '') },
      domainName: headerValue(headers, 'host') ?? 'localhost',
      domainPrefix: 'localhost',
      // API Gateway makes a second id of its own (x-amz-apigw-id); locally one id serves both.
      extendedRequestId: requestId,
      httpMethod: request.method,
      identity: {
        accessKey: null, accountId: null, apiKey: null, apiKeyId: null, caller: null, clientCert: null,
        cognitoAuthenticationProvider: null, cognitoAuthenticationType: null, cognitoIdentityId: null,
        cognitoIdentityPoolId: null, principalOrgId: null, sourceIp: request.sourceIp, user: null,
        userAgent: headerValue(headers, 'user-agent') ?? null, userArn: null,
      },
      path: `/${LOCAL_STAGE}${request.path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: match.resource,
      stage: LOCAL_STAGE,
    },
  };
}

/** The REQUEST authorizer event for a request, as API Gateway builds it (identity source: Authorization). */
export function buildAuthorizerEvent(proxyEvent: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(proxyEvent.httpMethod, proxyEvent.path),
    resource: proxyEvent.resource,
    path: proxyEvent.path,
    httpMethod: proxyEvent.httpMethod,
    headers: proxyEvent.headers,
    multiValueHeaders: proxyEvent.multiValueHeaders,
    pathParameters: proxyEvent.pathParameters,
    queryStringParameters: proxyEvent.queryStringParameters,
    multiValueQueryStringParameters: proxyEvent.multiValueQueryStringParameters,
    stageVariables: proxyEvent.stageVariables,
    requestContext: { ...proxyEvent.requestContext, authorizer: undefined } as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}
