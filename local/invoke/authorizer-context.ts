import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { userRepository } from '../tool-composition';
import { usesExternalIssuer } from '../environment';
import { mintLocalToken, type LocalSigningKey } from '../signing-key';
import { UsageError } from '../cli/cli-errors';
import { loadAuthorizer } from '../gateway/authorizer-runner';
import { buildAuthorizerEvent } from '../gateway/proxy-event';
import type { ProxyEvent } from './event-shape';

/**
 * What the real authorizer returns for a token of user `userId`: a token is minted with the local
 * key and the authorizer runs on it, so `--user` gives exactly the context a deployed call would.
 */
export async function authorizerContextFor(userId: number, event: ProxyEvent, key: LocalSigningKey | null): Promise<Record<string, string | number | boolean>> {
  if (key === null || usesExternalIssuer()) throw new UsageError('--user mints a token with the local key, which is not in use here.');
  const user = await userRepository().findById(userId);
  if (!user) throw new UsageError(`no user with id ${userId}.`);
  const token = await mintLocalToken(key, user.subject, 300);
  const authorizer = await loadAuthorizer();
  const result: APIGatewayAuthorizerResult = await authorizer(
    buildAuthorizerEvent({ ...event, headers: { ...event.headers, Authorization: `Bearer ${token}` } }),
    undefined,
  );
  if (result.policyDocument.Statement.some((statement) => statement.Effect !== 'Allow')) {
    throw new UsageError(`user ${userId} is denied by the authorizer (status ${user.status}).`);
  }
  return { ...(result.context as Record<string, string | number | boolean>), principalId: result.principalId };
}
