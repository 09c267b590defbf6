import { problemFailures } from '../answer-expectations';
import type { CheckFindings, SmokeCheck, SmokeTarget } from '../smoke-check';

/**
 * A route that does not exist: the 404 problem. API Gateway reports an unknown resource or method
 * as MISSING_AUTHENTICATION_TOKEN, a 403 by default
 * (https://repost.aws/knowledge-center/api-gateway-authentication-token-errors); the stack
 * customises it. No token is sent: with an Authorization header API Gateway reads an unknown route
 * as a badly signed IAM request instead.
 */

/** A path no route of the API will ever have. */
const UNKNOWN_PATH = '/smoke-check/no-such-route';

async function run(target: SmokeTarget): Promise<CheckFindings> {
  const answer = await target.request({ path: UNKNOWN_PATH });
  return { failures: problemFailures(answer, 'not_found'), summary: '404 not_found' };
}

/** GET a path that no route serves. */
export const unknownRouteCheck: SmokeCheck = { name: '404', needs: [], run };
