import { IdempotencyAlreadyInProgressError, IdempotencyInconsistentStateError, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import { checkManagedTarget } from '../access/managed-target';
import type { RouteContract, RouteOperation } from '../http/route-definition';
import type { HttpResult, RouteInput, RouteWork } from '../http/route-work';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './errors';
import { keyedRequests, type KeyedRequest, type StoredAnswer } from './idempotency-store';
import { idempotencyKeyOf } from './idempotency-key';

/**
 * Safe retries of an unsafe route (DESIGN.md 5b), applied by the HTTP layer to every route that
 * takes an `Idempotency-Key` (http-route.ts). A request with a key runs once per caller and key;
 * the same key with the same request replays the first answer (its status, body and the headers
 * the route set, such as ETag: not those of the request it answers, such as CORS, which the HTTP
 * layer adds to every answer, the replayed one included). Only a success is kept: a request that
 * failed did nothing, so its retry runs again. A request without a key runs as if this layer were
 * not there.
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

/**
 * What the key was sent with: the operation, its validated path, query and body, and the `If-Match`
 * of a route that reads it (the same update on another version is another request, RFC 9110
 * section 13.1.1), spaces around the value aside.
 */
function fingerprint(route: RouteOperation, input: RouteInput<RouteContract>): KeyedRequest['request'] {
  const ifMatch = route.contract.requestHeaders?.includes('If-Match') === true ? input.headers['if-match']?.trim() : undefined;
  return { operation: route.name, path: input.path ?? null, query: input.query ?? null, body: input.body ?? null, ...(ifMatch === undefined ? {} : { ifMatch }) };
}

/**
 * Checks again, before an answer that is not this request's own work is given, what the request's
 * own work would have checked: the caller, resolved as stored in this request (a suspended caller
 * is refused before this layer), and the user its path names.
 */
function reauthorize(input: RouteInput<RouteContract>): Promise<void> {
  return checkManagedTarget(input.caller, input.path);
}

/**
 * `work` of `route`, made safe to retry with an `Idempotency-Key`. An answer that is not this
 * request's own work (a replay, or the key's refusal: in use, or sent with another request) is
 * given only to a caller who may still make the request: one demoted, suspended, or whose sub user
 * moved to another parent gets what any request of theirs gets now, never the answer stored for
 * them before.
 */
export function idempotent(route: RouteOperation, work: RouteWork): RouteWork {
  return async (input) => {
    const key = idempotencyKeyOf(input.headers['idempotency-key']);
    if (key === undefined) return work(input);
    let ran = false;
    const once = async (): Promise<StoredAnswer> => {
      ran = true;
      return toStored(await work(input));
    };
    try {
      const answer = await keyedRequests()({ caller: input.caller.userId, key, request: fingerprint(route, input) }, input.context, once);
      if (!ran) await reauthorize(input);
      return fromStored(answer);
    } catch (error) {
      if (ran) throw error;
      await reauthorize(input);
      throw asProblem(error);
    }
  };
}
