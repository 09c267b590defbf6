import { MalformedBodyError, PayloadTooLargeError, type ProblemError } from '../../shared/errors';
import { parseInput } from '../../shared/validation/issues';
import type * as z from '../../shared/validation/zod';
import { LIVE_LIMITS } from '../model/live-limits';
import type { ErrorMessage } from '../model/live-messages';
import type { WebSocketEvent } from './websocket-event';

/**
 * A client's message as the routes read it: the text of the event (API Gateway hands binary frames
 * over base64-encoded), within the product's size limit, as JSON, then by the route's schema.
 * Each refusal is a problem of the catalog, answered as an `error` message.
 */

/** The text of a message. */
function messageText(event: WebSocketEvent): string {
  const body = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/** A message as JSON, or the problem that refuses it: larger than the limit, or not JSON. */
export function messageJson(event: WebSocketEvent): unknown {
  const text = messageText(event);
  const bytes = Buffer.byteLength(text);
  if (bytes > LIVE_LIMITS.messageBytes) throw new PayloadTooLargeError(`A message may hold at most ${LIVE_LIMITS.messageBytes} bytes; this one holds ${bytes}.`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new MalformedBodyError('A message must be a JSON object such as {"action":"subscribe","id":"a","filter":{}}.', error);
  }
}

/** A message read by `schema`: a 400 names each field in error (`filter.status`). */
export function parseMessage<S extends z.ZodMiniType>(event: WebSocketEvent, schema: S): z.output<S> {
  return parseInput(schema, messageJson(event), 'body');
}

/** The subscription a message names (`id`), if it names one as a string, whatever else is wrong with it. */
export function namedSubscription(event: WebSocketEvent): string | undefined {
  try {
    const json = JSON.parse(messageText(event)) as { id?: unknown } | null;
    return typeof json?.id === 'string' && json.id.length <= 64 ? json.id : undefined;
  } catch {
    return undefined;
  }
}

/** The `error` message of a problem, about subscription `id` when the message named one. */
export function errorMessage(problem: ProblemError, id?: string): ErrorMessage {
  return {
    type: 'error',
    ...(id === undefined ? {} : { id }),
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    ...(problem.errors === undefined ? {} : { errors: problem.errors.map(({ name, reason }) => ({ name, reason })) }),
  };
}
