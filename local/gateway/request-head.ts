import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GATEWAY_HEAD_LIMITS, type GatewayHeadRefusal } from '../../functions/shared/http/gateway-problems';
import { logger } from '../../functions/shared/logger';
import { gatewayResponse } from './dispatch';
import type { LocalResponse } from './local-response';

/**
 * The request head, as API Gateway limits it (functions/shared/http/gateway-problems.ts): a URL
 * or headers over the limit are refused with a problem, like the gateway's other answers.
 */

/**
 * What Node's HTTP parser reads of a request head (request line and headers together) before it
 * gives up: more than the largest head API Gateway takes, a URL and headers both at their limits,
 * so that this gateway, not the parser, judges every head API Gateway would judge. Node's default,
 * 16 KiB, would refuse heads API Gateway accepts.
 */
export const PARSER_HEAD_BYTES = 32 * 1024;

/** Bytes of the headers as sent: each `name: value` line with its line end, as AWS counts them. */
function headerBytes(request: IncomingMessage): number {
  let bytes = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    // Node reads header bytes as latin1: one character a byte.
    bytes += (request.rawHeaders[index] as string).length + 2 + (request.rawHeaders[index + 1] as string).length + 2;
  }
  return bytes;
}

/**
 * Why API Gateway would refuse this request's head, if it would. The URL counted is the request
 * target (path and query), the part a client makes long.
 */
export function headRefusal(request: IncomingMessage): GatewayHeadRefusal | undefined {
  if ((request.url ?? '').length > GATEWAY_HEAD_LIMITS.maxUrlCharacters) return 'URI_TOO_LONG';
  if (headerBytes(request) > GATEWAY_HEAD_LIMITS.maxHeaderBytes) return 'HEADERS_TOO_LARGE';
  return undefined;
}

/** Error codes of the HTTP parser (llhttp) for a head over {@link PARSER_HEAD_BYTES}. */
const HEAD_OVERFLOW = 'HPE_HEADER_OVERFLOW';

/**
 * Which part of a head overflowed the parser, from the bytes it was reading (`rawPacket`): still
 * the request line when they start a request whose first line is over the URL limit or not yet
 * ended, the headers otherwise. A best guess when the head came in several packets.
 */
function overflowRefusal(rawPacket: unknown): GatewayHeadRefusal {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1') : '';
  const lineEnd = text.indexOf('\n');
  const startsRequest = /^[A-Z]+ \S/.test(text);
  if (startsRequest && (lineEnd === -1 || lineEnd > GATEWAY_HEAD_LIMITS.maxUrlCharacters)) return 'URI_TOO_LONG';
  return startsRequest || lineEnd !== -1 ? 'HEADERS_TOO_LARGE' : 'URI_TOO_LONG';
}

/** An answer written straight to the socket, as the server would have, then the connection closed. */
function writeAndClose(socket: Duplex, answer: LocalResponse): void {
  const headers = { ...answer.headers, 'content-length': String(answer.body.byteLength), connection: 'close' };
  const status = `HTTP/1.1 ${answer.statusCode} ${STATUS_TEXT[answer.statusCode] ?? 'Error'}`;
  const head = [status, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), answer.body]));
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 400: 'Bad Request', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

/**
 * The server's `clientError` handler: a request the parser could not read never reaches the
 * gateway, so it is answered here, as a problem: 414 or 431 for a head over the parser's limit,
 * 400 for anything else it cannot parse. The request's headers were not read, so the CORS headers
 * are those the gateway gives without knowing the origin. A socket that can no longer be written
 * to (the client left) is destroyed, never left open.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const type = error.code === HEAD_OVERFLOW ? overflowRefusal(error.rawPacket) : 'DEFAULT_4XX';
  logger.debug('Local gateway refused an unreadable request', { code: error.code });
  writeAndClose(socket, gatewayResponse(type));
}
