import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { getDocumentClient } from '../shared/aws/clients';
import { dataConfig, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { logger } from '../shared/logger';
import { invocationTelemetry, routeKey } from '../shared/observability/invocation-telemetry';
import { recordAuthorizerDenial } from '../shared/observability/metrics';
import { usersTable } from '../shared/tables/users-table';
import { IdentityRepository, type AuthIdentity } from './identity-repository';
import { authConfig } from './auth-config';
import { allowPolicy } from './authorizer-policy';
import { AmbiguousSubjectError, IdentityProviderUnavailableError, InvalidTokenError } from './errors';
import { IDENTITY_PROVIDER_UNAVAILABLE } from './token-refusal';
import { bearerToken, isCanonicalToken } from './token-spelling';
import { verifyToken } from './token-verifier';

/** The message API Gateway turns into its 401 gateway response. */
const UNAUTHORIZED = 'Unauthorized';

/** Who token subjects are, read from the users table's subject index. */
const identities = /* @__PURE__ */ lazy(() => new IdentityRepository(getDocumentClient(), tableName(usersTable)));

function authorizationHeader(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  const headers = event.headers ?? {};
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'authorization');
  return name === undefined ? undefined : (headers[name] ?? undefined);
}

/** The user a request's token names, and the token's `exp`; every refusal is an {@link InvalidTokenError} with its reason. */
async function authenticate(event: APIGatewayRequestAuthorizerEvent): Promise<{ identity: AuthIdentity; expires: number }> {
  const header = authorizationHeader(event);
  if (header === undefined) throw new InvalidTokenError('missing', 'No Authorization header.');
  const token = bearerToken(header);
  if (token === null) throw new InvalidTokenError('malformed', 'The Authorization header is not `Bearer <token>`, spelled so.');
  if (!isCanonicalToken(token)) throw new InvalidTokenError('malformed', 'The token is not three unpadded base64url segments, each spelled as it re-encodes.');
  const { subject, expires } = await verifyToken(token, authConfig());
  try {
    const identity = await identities().findBySubject(subject);
    if (!identity) throw new InvalidTokenError('unknown_subject', 'No user answers to the token subject.');
    return { identity, expires };
  } catch (error) {
    throw error instanceof AmbiguousSubjectError ? new InvalidTokenError('ambiguous_subject', error.message, { cause: error }) : error;
  }
}

/**
 * The REQUEST authorizer. A missing, invalid or expired token, or one whose subject is no user,
 * throws `Unauthorized` (API Gateway: 401; why is logged and counted, never answered). A token of a known user
 * gets an Allow for the whole API with `{userId, role, parentId, exp}` as context, whatever the
 * user's status: API Gateway caches this answer per token, so it holds only what does not change (the
 * signature, issuer and subject checks, and the token's `exp`). The routes read the caller as stored
 * on every request and answer a user who is not active 403, so a suspension and a reactivation both
 * count at once, and they refuse the token past its `exp` with the 401 the authorizer would give.
 * When the issuer's keys cannot be fetched it throws anything but `Unauthorized`, which API Gateway
 * treats as an authorizer failure: the 503 problem of gateway-problems.ts, with Retry-After.
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  let identity: AuthIdentity;
  let expires: number;
  try {
    ({ identity, expires } = await authenticate(event));
  } catch (error) {
    if (error instanceof IdentityProviderUnavailableError) {
      // Thrown on: API Gateway answers its authorizer-failure response (503 with Retry-After) and
      // does not cache it, so the next request asks the issuer again.
      logger.error('Identity provider unavailable', { reason: IDENTITY_PROVIDER_UNAVAILABLE, detail: error.message });
      recordAuthorizerDenial(IDENTITY_PROVIDER_UNAVAILABLE);
      throw error;
    }
    if (!(error instanceof InvalidTokenError)) throw error;
    logger.info('Token refused', { reason: error.reason, detail: error.message });
    recordAuthorizerDenial(error.reason);
    throw new Error(UNAUTHORIZED);
  }
  logger.info('Token accepted', { userId: identity.id });
  return allowPolicy({ userId: identity.id, role: identity.role, parentId: identity.parentId }, expires, event.methodArn);
}

/** The Lambda handler: {@link authorize} with the invocation's telemetry (its lines carry the request's ids and route). */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>(authorize, { timeoutEarlyInMillis: 0 }).use(
  invocationTelemetry<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>((event) => ({
    correlationId: event.requestContext?.requestId,
    route: routeKey(event.httpMethod, event.resource),
  })),
);

// Cold start: a deployment without its issuer or tables fails to start, and says which variable is missing.
authConfig();
dataConfig();
