import { randomBytes, randomUUID } from 'node:crypto';
import type { WebSocketEvent, WebSocketRequestContext } from '../../functions/live/connections/websocket-event';
import { LIVE_STAGE } from '../../functions/live/model/live-limits';
import { clfTime } from '../gateway/access-log';
import { headerMaps, queryMaps } from '../gateway/proxy-event';

/**
 * The events of API Gateway's WebSocket API as the local WebSocket server (and `invoke
 * --generate-event 'WEBSOCKET …'`) builds them, member for member as AWS hands them to a Lambda
 * proxy integration (functions/live/connections/websocket-event.ts cites the documentation):
 * `$connect` with the upgrade request's headers and query, a message with its body and id,
 * `$disconnect` with the close code and reason.
 */

/** The API id of local events. */
export const LOCAL_WEBSOCKET_API_ID = 'localws';

/** What every event of one connection shares. */
export interface ConnectionFacts {
  readonly connectionId: string;
  /** When the connection was made (epoch milliseconds). */
  readonly connectedAt: number;
  readonly sourceIp: string;
  readonly userAgent?: string;
  /** The `Host` clients connect to (`127.0.0.1:3001`). */
  readonly domainName: string;
}

/** A connection id as API Gateway writes them: 11 random bytes, base64url, with its padding (`JC1dgf9yoAMCK-g=`). */
export function newConnectionId(): string {
  return `${randomBytes(11).toString('base64url')}=`;
}

/** An id for a request or a message, in API Gateway's base64 style (`XfGLwFTktjMFsLg=`). */
function gatewayId(): string {
  return `${randomBytes(11).toString('base64url')}=`;
}

function requestContext(facts: ConnectionFacts, routeKey: string, eventType: WebSocketRequestContext['eventType'], extra: Partial<WebSocketRequestContext> = {}): WebSocketRequestContext {
  const now = new Date();
  const requestId = gatewayId();
  return {
    routeKey,
    eventType,
    extendedRequestId: requestId,
    requestTime: clfTime(now),
    messageDirection: 'IN',
    stage: LIVE_STAGE,
    connectedAt: facts.connectedAt,
    requestTimeEpoch: now.getTime(),
    identity: { sourceIp: facts.sourceIp, userAgent: facts.userAgent ?? null },
    requestId,
    domainName: facts.domainName,
    connectionId: facts.connectionId,
    apiId: LOCAL_WEBSOCKET_API_ID,
    messageId: null,
    ...extra,
  };
}

/** The `$connect` event of an upgrade request (its headers in arrival order, its raw query). */
export function connectEvent(facts: ConnectionFacts, request: { readonly headers: readonly [string, string][]; readonly rawQuery: string }): WebSocketEvent {
  const { headers, multiValueHeaders } = headerMaps(request.headers);
  const query = queryMaps(request.rawQuery);
  return {
    headers,
    multiValueHeaders,
    ...(query.single === null ? {} : { queryStringParameters: query.single, multiValueQueryStringParameters: query.multi }),
    requestContext: requestContext(facts, '$connect', 'CONNECT', { disconnectStatusCode: null, disconnectReason: null }),
    isBase64Encoded: false,
  };
}

/** The event of a message for route `routeKey`: text as it came, binary frames base64-encoded. */
export function messageEvent(facts: ConnectionFacts, routeKey: string, data: Buffer, isBinary: boolean): WebSocketEvent {
  return {
    requestContext: requestContext(facts, routeKey, 'MESSAGE', { messageId: gatewayId() }),
    body: isBinary ? data.toString('base64') : data.toString('utf8'),
    isBase64Encoded: isBinary,
  };
}

/** The `$disconnect` event of a connection closed with `code` and `reason`. */
export function disconnectEvent(facts: ConnectionFacts, code: number, reason: string): WebSocketEvent {
  return {
    headers: { Host: facts.domainName },
    multiValueHeaders: { Host: [facts.domainName] },
    requestContext: requestContext(facts, '$disconnect', 'DISCONNECT', { disconnectStatusCode: code, disconnectReason: reason }),
    isBase64Encoded: false,
  };
}

/** Facts of a connection made now from loopback (for `invoke --generate-event`). */
export function localConnectionFacts(domainName: string, connectionId = newConnectionId()): ConnectionFacts {
  return { connectionId, connectedAt: Date.now(), sourceIp: '127.0.0.1', domainName };
}

/** A fresh random id, unrelated to API Gateway's: for log lines that need one. */
export const localRequestId = randomUUID;
