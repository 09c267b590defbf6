import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from '../errors';
import { ROLES, type Caller, type Role } from '../access/roles';

/**
 * The authorizer context as API Gateway hands it to the function: the REQUEST authorizer may only
 * return strings, numbers and booleans, so `parentId` travels as a string ('' when none).
 */
export interface AuthorizerContext {
  readonly userId: string;
  readonly role: Role;
  readonly parentId: string;
}

/** Encode a caller for the authorizer's `context`. */
export function toAuthorizerContext(caller: Caller): AuthorizerContext {
  return { userId: String(caller.userId), role: caller.role, parentId: caller.parentId === null ? '' : String(caller.parentId) };
}

function asId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/**
 * The caller of a request, from `requestContext.authorizer`. A guarded route reached without a
 * well-formed context (a misconfigured route, a hand-edited event) is refused, never served.
 */
export function callerOf(event: APIGatewayProxyEvent): Caller {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const userId = asId(context?.userId);
  const role = context?.role;
  if (userId === null || typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw new UnauthorizedError('The request carries no authorizer context.');
  }
  const parentId = context?.parentId === '' || context?.parentId === undefined || context?.parentId === null ? null : asId(context.parentId);
  return { userId, role: role as Role, parentId };
}
