import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logger } from '../../functions/shared/logger';
import type { AuthorizerRunner } from './authorizer-runner';
import { dispatch, GATEWAY_LIMITS, gatewayResponse, type LocalResponse } from './dispatch';
import type { LocalRequest } from './proxy-event';

/** Read a request body, stopping at `limit + 1` bytes: more than the limit is refused unread. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      resolve('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        request.removeAllListeners('data');
        request.resume();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function headerPairs(request: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    pairs.push([request.rawHeaders[index] as string, request.rawHeaders[index + 1] as string]);
  }
  return pairs;
}

function send(response: ServerResponse, answer: LocalResponse): void {
  const headers: Record<string, string | string[]> = { ...answer.headers };
  for (const [name, values] of Object.entries(answer.multiValueHeaders)) headers[name] = values;
  headers['content-length'] = String(answer.body.byteLength);
  response.writeHead(answer.statusCode, headers);
  response.end(answer.body);
}

/** Turn one HTTP request into a {@link LocalRequest}, dispatch it, and write the answer. */
async function serve(request: IncomingMessage, response: ServerResponse, authorizer: AuthorizerRunner): Promise<void> {
  const body = await readBody(request, GATEWAY_LIMITS.maxBodyBytes);
  if (body === 'too-large') {
    response.setHeader('connection', 'close');
    send(response, gatewayResponse('REQUEST_TOO_LARGE', request.headers.origin));
    return;
  }
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  const local: LocalRequest = {
    method: request.method ?? 'GET',
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    rawQuery: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers: headerPairs(request),
    body,
    sourceIp: request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  };
  send(response, await dispatch(local, authorizer));
}

/** A running local gateway. */
export interface LocalGateway {
  readonly server: Server;
  readonly port: number;
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Start the local gateway on 127.0.0.1:`port` (0: any free port). */
export async function startGateway(authorizer: AuthorizerRunner, port: number): Promise<LocalGateway> {
  const server = createServer((request, response) => {
    serve(request, response, authorizer).catch((error: unknown) => {
      logger.error('Local gateway failure', { error: error as Error });
      if (!response.headersSent) send(response, gatewayResponse('DEFAULT_5XX', request.headers.origin));
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    baseUrl: `http://127.0.0.1:${actual}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
