import type { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_LIMITS } from './dispatch';

/**
 * How the local gateway closes a connection whose request it refused without reading its body (a
 * body over the limit, a head over API Gateway's): in stages, as RFC 9112 section 9.6 advises
 * (https://www.rfc-editor.org/rfc/rfc9112#section-9.6) and nginx's lingering close does
 * (https://nginx.org/en/docs/http/ngx_http_core_module.html#lingering_close). The answer goes out
 * whole at once (framed by its Content-Length, with `Connection: close`); the rest of the body is
 * then read and dropped; only then is the connection closed. Closed at once, it would still hold
 * unread bytes of the body, which the kernel answers with a reset that can wipe the answer from
 * the client's buffers before the client reads it: a client that reads its answer once it has
 * sent its body (an 11 MB PUT from Node's http client) got EPIPE and no answer.
 */

/** What the gateway reads of a refused body before it closes anyway (and a reset may then come). */
export const LINGER_LIMITS = {
  /** Bytes of the body read and dropped: enough for any upload of a few times the body limit. */
  maxBytes: 6 * GATEWAY_LIMITS.maxBodyBytes,
  /** Longest lingering in all, as nginx's `lingering_time` (30 s there). */
  maxMs: 10_000,
  /** Longest wait for more of the body, as nginx's `lingering_timeout` (5 s there). */
  idleMs: 2_000,
} as const;

/** The limits of one lingering close (tests shorten them). */
export type LingerLimits = { readonly [K in keyof typeof LINGER_LIMITS]: number };

/** Read and drop the rest of `request`'s body; true once it ended, false when a limit stopped it first. */
function drainBody(request: IncomingMessage, limits: LingerLimits): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (drained: boolean): void => {
      clearTimeout(total);
      clearTimeout(idle);
      request.off('data', onData);
      resolve(drained);
    };
    const total = setTimeout(() => finish(false), limits.maxMs);
    const idle = setTimeout(() => finish(false), limits.idleMs);
    const onData = (chunk: Buffer): void => {
      bytes += chunk.byteLength;
      if (bytes > limits.maxBytes) finish(false);
      else idle.refresh();
    };
    request.on('data', onData);
    request.once('end', () => finish(true));
    request.once('close', () => finish(request.complete));
    request.resume();
  });
}

/**
 * Answer `request`, whose body was not read, with `body` (its head already set on `response`),
 * then linger: drain the body within `limits`, and end. A body drained whole leaves nothing for a
 * reset; one that outlasts the limits is cut off.
 */
export async function answerAndLinger(request: IncomingMessage, response: ServerResponse, body: Buffer, limits: LingerLimits = LINGER_LIMITS): Promise<void> {
  response.write(body);
  const drained = await drainBody(request, limits);
  response.end();
  if (!drained) response.socket?.destroy();
}
