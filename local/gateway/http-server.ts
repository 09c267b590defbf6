import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logger } from '../../functions/shared/logger';
import { writeAccessLog } from './access-log';
import type { AuthorizerRunner } from './authorizer-runner';
import { dispatch, GATEWAY_LIMITS, gatewayResponse, identified } from './dispatch';
import type { LocalResponse } from './local-response';
import type { LocalRequest } from './proxy-event';
import { requestIdFor } from './request-id';
import { answerAndLinger } from './lingering-close';
import { answerClientError, headRefusal, PARSER_HEAD_BYTES } from './request-head';

/** Read a request body, stopping at `limit + 1` bytes: the rest of a larger one is left unread (lingering-close.ts). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      resolve('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > limit) {
        request.off('data', onData);
        request.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
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

/** Write `answer`'s head; a request whose body is left unread gets its answer with a lingering close. */
async function send(request: IncomingMessage, response: ServerResponse, answer: LocalResponse, bodyUnread: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = { ...answer.headers };
  for (const [name, values] of Object.entries(answer.multiValueHeaders)) headers[name] = values;
  headers['content-length'] = String(answer.body.byteLength);
  response.writeHead(answer.statusCode, headers);
  if (bodyUnread) await answerAndLinger(request, response, answer.body);
  else response.end(answer.body);
}

/** How the gateway serves: where its access log goes and how long a function may take. */
export interface GatewayOptions {
  /**
   * Where the access log lines go; by default stderr, beside the functions' logs, and nowhere when
   * those are silenced (`POWERTOOLS_LOG_LEVEL=SILENT`, as the tests run).
   */
  readonly accessLog?: NodeJS.WritableStream | null;
  /** The integration timeout; API Gateway's 29 s by default. */
  readonly timeoutMs?: number;
}

function defaultAccessLog(): NodeJS.WritableStream | null {
  return process.env.POWERTOOLS_LOG_LEVEL?.toUpperCase() === 'SILENT' ? null : process.stderr;
}

/** A request as received, before its body: what the access log needs whatever the answer. */
function received(request: IncomingMessage): Omit<LocalRequest, 'body'> & { readonly requestId: string } {
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  const headers = headerPairs(request);
  return {
    method: request.method ?? 'GET',
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    rawQuery: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers,
    sourceIp: request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
    requestId: requestIdFor(headers),
  };
}

/** An answer, and whether the request's body was left unread (refused): its connection then closes lingering. */
interface Answered {
  readonly answer: LocalResponse;
  readonly bodyUnread: boolean;
}

/**
 * The answer to a request: 414 or 431 for a head API Gateway would refuse, 413 for a body over the
 * limit (both refused with the body unread, the connection then closed), else what dispatching it gives.
 */
async function answerTo(request: IncomingMessage, response: ServerResponse, local: ReturnType<typeof received>, authorizer: AuthorizerRunner, options: GatewayOptions): Promise<Answered> {
  const headRefused = headRefusal(request);
  const body = headRefused === undefined ? await readBody(request, GATEWAY_LIMITS.maxBodyBytes) : 'unread';
  if (Buffer.isBuffer(body)) return { answer: await dispatch({ ...local, body }, authorizer, options.timeoutMs), bodyUnread: false };
  response.setHeader('connection', 'close');
  return { answer: identified(gatewayResponse(headRefused ?? 'REQUEST_TOO_LARGE', request.headers.origin), local.requestId), bodyUnread: true };
}

/** Serve one HTTP request: answer it, then write its access log line, whatever the answer. */
async function serve(request: IncomingMessage, response: ServerResponse, authorizer: AuthorizerRunner, options: GatewayOptions): Promise<void> {
  const receivedAt = new Date();
  const started = performance.now();
  const local = received(request);
  let answered: Answered;
  try {
    answered = await answerTo(request, response, local, authorizer, options);
  } catch (error) {
    logger.error('Local gateway failure', { error: error as Error });
    answered = { answer: identified(gatewayResponse('DEFAULT_5XX', request.headers.origin), local.requestId), bodyUnread: false };
  }
  const { answer } = answered;
  // The access line once the answer is out, not after a lingering close's drain.
  const sent = response.headersSent ? Promise.resolve() : send(request, response, answer, answered.bodyUnread);
  const accessLog = options.accessLog === undefined ? defaultAccessLog() : options.accessLog;
  if (accessLog !== null) {
    writeAccessLog(accessLog, { ...local, receivedAt, status: answer.statusCode, responseLength: answer.body.byteLength, latencyMs: performance.now() - started, facts: answer.facts ?? {} });
  }
  await sent;
}

/** A running local gateway. */
export interface LocalGateway {
  readonly server: Server;
  readonly port: number;
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Start the local gateway on 127.0.0.1:`port` (0: any free port). */
export async function startGateway(authorizer: AuthorizerRunner, port: number, options: GatewayOptions = {}): Promise<LocalGateway> {
  const server = createServer({ maxHeaderSize: PARSER_HEAD_BYTES }, (request, response) => {
    serve(request, response, authorizer, options).catch((error: unknown) => {
      // Only the access line itself can fail here: the answer went out already.
      logger.error('Local gateway failure', { error: error as Error });
    });
  });
  server.keepAliveTimeout = 5_000;
  // Without a handler Node answers a bare 400 or 431 of its own, no problem body.
  server.on('clientError', answerClientError);
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
