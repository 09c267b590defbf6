/**
 * The events API Gateway's WebSocket API hands a route's Lambda proxy integration, and what the
 * function answers
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-integration-requests.html,
 * the context variables of
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-mapping-template-reference.html).
 * `$connect` carries the upgrade request's headers and query; a message its body; `$disconnect`
 * the close code and reason. The local WebSocket server builds the same (local/live/).
 */

/** `requestContext` of a WebSocket event. */
export interface WebSocketRequestContext {
  readonly routeKey: string;
  readonly eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
  readonly connectionId: string;
  readonly domainName: string;
  readonly stage: string;
  readonly apiId: string;
  readonly requestId: string;
  readonly extendedRequestId: string;
  /** CLF time of the request (`13/Dec/2020:10:17:47 +0000`). */
  readonly requestTime: string;
  readonly requestTimeEpoch: number;
  /** When the connection was made (epoch milliseconds). */
  readonly connectedAt: number;
  readonly messageDirection: 'IN';
  /** The message's id (MESSAGE events only; null otherwise). */
  readonly messageId?: string | null;
  /** The close code (DISCONNECT events only). */
  readonly disconnectStatusCode?: number | null;
  readonly disconnectReason?: string | null;
  readonly identity: { readonly sourceIp: string; readonly userAgent?: string | null };
}

/** A WebSocket event of a Lambda proxy integration. */
export interface WebSocketEvent {
  readonly requestContext: WebSocketRequestContext;
  readonly headers?: Readonly<Record<string, string>>;
  readonly multiValueHeaders?: Readonly<Record<string, readonly string[]>>;
  readonly queryStringParameters?: Readonly<Record<string, string>> | null;
  readonly multiValueQueryStringParameters?: Readonly<Record<string, readonly string[]>> | null;
  readonly body?: string | null;
  readonly isBase64Encoded: boolean;
}

/**
 * What a route answers. For `$connect` a status outside 2xx refuses the connection with it; for a
 * route with a route response, `body` goes back to the client as a message.
 */
export interface WebSocketResult {
  readonly statusCode: number;
  readonly body?: string;
}

/** A request header of the event, whatever the case of its name. */
export function eventHeader(event: WebSocketEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(event.headers ?? {}).find(([header]) => header.toLowerCase() === wanted)?.[1];
}
