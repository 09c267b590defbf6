import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from '../errors';
import { logger } from '../logger';
import { ROLES, type Caller, type Role } from '../access/roles';

/**
 * The authorizer context as API Gateway hands it to the function: the REQUEST authorizer may only
 * return strings, numbers and booleans, and API Gateway hands every value on as a string
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-lambda-authorizer-output.html),
 * so ids travel as strings (`parentId` '' when none).
 */
export interface AuthorizerContext {
  readonly userId: string;
  readonly role: Role;
  readonly parentId: string;
  /** The token's `exp`, in epoch seconds. */
  readonly exp?: string;
}

/**
 * Seconds a token is still accepted past its `exp`, for clocks that disagree by a little: the
 * authorizer's tolerance, and the routes' too, so that both refuse a token at the same moment.
 */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

/** Encode a caller, and the `exp` of the token it called with, for the authorizer's `context`. */
export function toAuthorizerContext(caller: Caller, tokenExpires?: number): AuthorizerContext {
  return {
    userId: String(caller.userId),
    role: caller.role,
    parentId: caller.parentId === null ? '' : String(caller.parentId),
    ...(tokenExpires === undefined ? {} : { exp: String(tokenExpires) }),
  };
}

function asId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/**
 * Refuses a token past its `exp`. API Gateway reuses the authorizer's answer for a token for the
 * whole cache TTL (`authorizerResultTtlInSeconds`, 300 s by default) whatever the token's `exp`
 * (https://docs.aws.amazon.com/apigateway/latest/api/API_Authorizer.html), so the authorizer passes
 * the `exp` on and the route checks it on every request: expiry bites on the next request, as the
 * authorizer would have refused the token (DESIGN 3). A context without `exp` (an answer cached from
 * an authorizer that did not pass it yet) is left to its cache TTL.
 */
function refuseExpired(exp: unknown, now: number): void {
  if (exp === undefined) return;
  const seconds = typeof exp === 'number' ? exp : typeof exp === 'string' && /^\d+$/.test(exp) ? Number(exp) : NaN;
  if (!Number.isSafeInteger(seconds)) throw new UnauthorizedError('The request carries no authorizer context.');
  if (now / 1000 > seconds + TOKEN_CLOCK_TOLERANCE_SECONDS) {
    logger.info('Token refused', { reason: 'expired', detail: 'Past its exp, with the authorizer answer still cached.' });
    throw new UnauthorizedError();
  }
}

/**
 * The `exp` (epoch seconds) of the token a request was authorized with, as the authorizer passed
 * it on; undefined when the context has none. A route that hands out something bound to the
 * token (a live media log ticket) makes it expire with the token.
 */
export function tokenExpiryOf(event: APIGatewayProxyEvent): number | undefined {
  const exp = (event.requestContext?.authorizer as Record<string, unknown> | null | undefined)?.exp;
  const seconds = typeof exp === 'number' ? exp : typeof exp === 'string' && /^\d+$/.test(exp) ? Number(exp) : NaN;
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/**
 * The caller of a request, from `requestContext.authorizer`. A guarded route reached without a
 * well-formed context (a misconfigured route, a hand-edited event) is refused, never served; so is
 * a token past its `exp`, whatever the authorizer cache still holds.
 */
export function callerOf(event: APIGatewayProxyEvent): Caller {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const userId = asId(context?.userId);
  const role = context?.role;
  if (userId === null || typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw new UnauthorizedError('The request carries no authorizer context.');
  }
  refuseExpired(context?.exp, Date.now());
  const parentId = context?.parentId === '' || context?.parentId === undefined || context?.parentId === null ? null : asId(context.parentId);
  return { userId, role: role as Role, parentId };
}
