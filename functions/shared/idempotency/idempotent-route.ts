import { IdempotencyAlreadyInProgressError, IdempotencyInconsistentStateError, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import type { HttpResult, RouteInput } from '../http/http-route';
import type { RouteOperation } from '../http/route-definition';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './errors';
import { keyedRequests, type StoredAnswer } from './idempotency-store';
import { idempotencyKeyOf } from './idempotency-key';

/**
 * Safe retries of an unsafe route (DESIGN.md 5b). A request with an `Idempotency-Key` runs once
 * per caller and key; the same key with the same request replays the first answer (its status,
 * body and the headers the route set, such as ETag: not those of the request it answers, such as
 * CORS, which the HTTP layer adds to every answer, the replayed one included). Only a success is
 * kept: a request that failed did nothing, so its retry runs again. A request without a key runs as
 * if this wrapper were not there.
 */

function toStored(result: HttpResult): StoredAnswer {
  return {
    statusCode: result.statusCode,
    ...(result.headers === undefined ? {} : { headers: { ...result.headers } }),
    ...(result.body === undefined ? {} : { body: JSON.stringify(result.body) }),
  };
}

function fromStored(answer: StoredAnswer): HttpResult {
  return {
    statusCode: answer.statusCode,
    ...(answer.headers === undefined ? {} : { headers: answer.headers }),
    ...(answer.body === undefined ? {} : { body: JSON.parse(answer.body) as unknown }),
  };
}

/** Powertools' refusals as the problems of the catalog; anything else (the route's own errors) as thrown. */
function asProblem(error: unknown): unknown {
  // Inconsistent state: the record changed (expired) while it was read, three times over; asking again settles it.
  if (error instanceof IdempotencyAlreadyInProgressError || error instanceof IdempotencyInconsistentStateError) return new IdempotencyKeyInUseError(error);
  if (error instanceof IdempotencyValidationError) return new IdempotencyKeyReusedError(error);
  return error;
}

/** `handle` of `route`, made safe to retry with an `Idempotency-Key`. */
export function idempotent<R extends RouteOperation & { readonly auth: 'bearer' }>(
  route: R,
  handle: (input: RouteInput<R['contract']>) => Promise<HttpResult>,
): (input: RouteInput<R['contract']>) => Promise<HttpResult> {
  return async (input) => {
    const key = idempotencyKeyOf(input.headers['idempotency-key']);
    if (key === undefined) return handle(input);
    const request = { operation: route.name, path: input.path ?? null, query: input.query ?? null, body: input.body ?? null };
    try {
      return fromStored(await keyedRequests()({ caller: input.caller.userId, key, request }, input.context, async () => toStored(await handle(input))));
    } catch (error) {
      throw asProblem(error);
    }
  };
}
