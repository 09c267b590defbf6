import type { Context } from 'aws-lambda';
import type { StoredCaller } from '../access/roles';
import type * as z from '../validation/zod';
import type { RouteContract } from './route-definition';

/**
 * What a route's own code takes and gives, between the HTTP layer (http-route.ts) and the layers it
 * wraps that code in (the `Idempotency-Key` layer): a module of types only, so that those layers
 * and the HTTP layer need not import each other.
 */

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** What a route handler returns; the HTTP layer serializes `body` as JSON. */
export interface HttpResult {
  readonly statusCode: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a route's domain code receives: validated input and the caller. */
export interface RouteInput<C extends RouteContract> {
  readonly path: Parsed<C['pathParameters']>;
  readonly query: Parsed<C['query']>;
  readonly body: Parsed<C['body']>;
  /** The authenticated caller, as stored now; routes without auth must not read it. */
  readonly caller: StoredCaller;
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The invocation's Lambda context: how long the function has left (an unfinished keyed request holds its key that long). */
  readonly context: Context;
  /** The `exp` (epoch seconds) of the caller's token, as the authorizer passed it on; undefined without one. */
  readonly tokenExpires?: number;
}

/** What a route does with a validated request, whatever its contract. */
export type RouteWork = (input: RouteInput<RouteContract>) => Promise<HttpResult>;
