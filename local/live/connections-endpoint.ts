import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIVE_STAGE, WEBSOCKET_QUOTAS } from '../../functions/live/model/live-limits';

/**
 * The `@connections` API of the local WebSocket server, as API Gateway serves it at
 * `https://{api}.execute-api.{region}.amazonaws.com/{stage}/@connections/{connection_id}`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-how-to-call-websocket-api-connections.html):
 * POST sends its body to the connection (200), GET describes it (200, `connectedAt`, `identity`,
 * `lastActiveAt`), DELETE closes it (204); a connection that is not open answers 410
 * `GoneException`, a body over 128 KB 413 `PayloadTooLargeException`, an unsigned request 403
 * `ForbiddenException`. Errors carry their type in `x-amzn-ErrorType`, where the AWS SDK reads it,
 * so `@aws-sdk/client-apigatewaymanagementapi` runs against it unchanged.
 */

/** What the endpoint needs of an open connection. */
export interface EndpointConnection {
  send(data: Buffer): void;
  close(code: number, reason: string): void;
  readonly connectedAt: number;
  readonly lastActiveAt: number;
  readonly sourceIp: string;
  readonly userAgent: string | undefined;
}

const PATH = new RegExp(`^/${LIVE_STAGE}/@connections/([^/?]+)$`);

function answer(response: ServerResponse, status: number, body?: unknown, errorType?: string): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    ...(text === '' ? {} : { 'content-type': 'application/json' }),
    ...(errorType === undefined ? {} : { 'x-amzn-ErrorType': errorType }),
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

/** Read a body of at most `limit` bytes; more is 'too-large', read to its end and dropped. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * Serve an `@connections` request; false when the request is for another path (the caller answers
 * it). Requests must be signed (SigV4), as API Gateway's IAM authorization requires; the signature
 * itself is not checked locally.
 */
export async function serveConnections(request: IncomingMessage, response: ServerResponse, connections: ReadonlyMap<string, EndpointConnection>): Promise<boolean> {
  const match = PATH.exec(request.url ?? '');
  if (match === null) return false;
  if (!/^AWS4-HMAC-SHA256 /.test(request.headers.authorization ?? '')) {
    answer(response, 403, { message: 'Missing Authentication Token' }, 'ForbiddenException');
    return true;
  }
  const connection = connections.get(decodeURIComponent(match[1] as string));
  const body = request.method === 'POST' ? await readBody(request, WEBSOCKET_QUOTAS.messageBytes) : Buffer.alloc(0);
  if (body === 'too-large') answer(response, 413, { message: `Message too long: at most ${WEBSOCKET_QUOTAS.messageBytes} bytes` }, 'PayloadTooLargeException');
  else if (connection === undefined) answer(response, 410, { message: 'Gone' }, 'GoneException');
  else if (request.method === 'POST') {
    connection.send(body);
    answer(response, 200);
  } else if (request.method === 'GET') {
    const { connectedAt, lastActiveAt, sourceIp, userAgent } = connection;
    answer(response, 200, { connectedAt: new Date(connectedAt).toISOString(), identity: { sourceIp, userAgent: userAgent ?? '' }, lastActiveAt: new Date(lastActiveAt).toISOString() });
  } else if (request.method === 'DELETE') {
    connection.close(1000, 'Connection closed by the service');
    answer(response, 204);
  } else answer(response, 405, { message: 'Method not allowed' });
  return true;
}
