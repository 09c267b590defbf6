import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { toAuthorizerContext } from '../shared/http/caller';
import type { Caller } from '../shared/access/roles';

/**
 * The resource a policy covers: every method of every route of the stage. API Gateway caches an
 * authorizer's answer per token and reuses it on other routes, so a policy for one route only would
 * wrongly deny the next one; handlers do the object-level checks.
 */
export function wholeApiResource(methodArn: string): string {
  // arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{resource...}
  const [arnPrefix, stage] = methodArn.split('/');
  return `${arnPrefix}/${stage}/*`;
}

/**
 * Allow the whole API for this caller, passing who it is to the handlers, and until when its token
 * may be used (`tokenExpires`, the token's `exp`): API Gateway caches this answer whatever the
 * token's expiry, so the routes refuse the token past it (shared/http/caller.ts).
 */
export function allowPolicy(caller: Caller, tokenExpires: number, methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId: String(caller.userId),
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiResource(methodArn) }],
    },
    context: { ...toAuthorizerContext(caller, tokenExpires) },
  };
}
