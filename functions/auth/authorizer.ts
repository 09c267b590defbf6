import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { logger } from '../shared/logger';
import { userRepository } from '../users/user-context';
import { authConfigFromEnv, type AuthConfig } from './auth-config';
import { allowPolicy, denyPolicy } from './authorizer-policy';
import { bearerToken, InvalidTokenError, verifyToken } from './token-verifier';

let config: AuthConfig | undefined;

/** The message API Gateway turns into its 401 gateway response. */
const UNAUTHORIZED = 'Unauthorized';

function authorizationHeader(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  const headers = event.headers ?? {};
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'authorization');
  return name === undefined ? undefined : (headers[name] ?? undefined);
}

/**
 * The REQUEST authorizer. A missing, invalid or expired token, or one whose subject is no user,
 * throws `Unauthorized` (API Gateway: 401); a user who is not active gets a Deny (403); an active
 * user gets an Allow for the whole API with `{userId, role, parentId}` as context.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  config ??= authConfigFromEnv();
  const token = bearerToken(authorizationHeader(event));
  if (token === null) throw new Error(UNAUTHORIZED);
  let subject: string;
  try {
    subject = await verifyToken(token, config);
  } catch (error) {
    if (error instanceof InvalidTokenError) {
      logger.info('Token refused', { reason: error.message });
      throw new Error(UNAUTHORIZED);
    }
    throw error;
  }
  const identity = await userRepository().findIdentityBySubject(subject);
  if (!identity) {
    logger.info('Token subject is no user');
    throw new Error(UNAUTHORIZED);
  }
  if (identity.status !== 'active') return denyPolicy(identity.id, event.methodArn);
  return allowPolicy({ userId: identity.id, role: identity.role, parentId: identity.parentId }, event.methodArn);
}

/** Forget the cached verification set-up (tests and local tools switch issuers). */
export function resetAuthorizer(): void {
  config = undefined;
}
