import { PROBLEMS } from '../../../functions/shared/http/problem-catalog';
import { problemFailures } from '../answer-expectations';
import { corsAnswerFailures } from '../cors-expectations';
import { CURRENT_USER_PATH } from '../route-expectations';
import type { CheckFindings, SmokeCheck, SmokeTarget } from '../smoke-check';

/**
 * A bearer route without a token: the 401 problem and its RFC 6750 challenge, which tells a
 * frontend to refresh its token. With a REQUEST authorizer whose identity source (Authorization) is
 * missing, API Gateway answers 401 itself without calling the authorizer
 * (https://repost.aws/knowledge-center/api-gateway-401-error-lambda-authorizer), through the stack's
 * customised UNAUTHORIZED gateway response. With --origin, a page must be able to read that answer.
 */

const CHALLENGE = PROBLEMS.unauthorized.headers['WWW-Authenticate'];

// RFC 6750 section 3: a Bearer challenge; its error parameter says the token is the problem.
function isInvalidTokenChallenge(value: string): boolean {
  return /^Bearer(\s|$)/i.test(value) && /\berror="invalid_token"/.test(value);
}

async function run(target: SmokeTarget): Promise<CheckFindings> {
  const { origin } = target.options;
  const answer = await target.request({ path: CURRENT_USER_PATH, headers: origin === undefined ? {} : { origin } });
  const failures = problemFailures(answer, 'unauthorized');
  if (answer.status !== PROBLEMS.unauthorized.status) return { failures, summary: '' };
  const challenge = answer.headers.get('www-authenticate');
  if (challenge === null || !isInvalidTokenChallenge(challenge)) {
    failures.push(`expected WWW-Authenticate: ${CHALLENGE}, got ${challenge === null ? 'none' : challenge}`);
  }
  if (origin !== undefined) failures.push(...corsAnswerFailures(answer, origin));
  return { failures, summary: `401 unauthorized, WWW-Authenticate: ${challenge ?? ''}${origin === undefined ? '' : `, readable from ${origin}`}` };
}

/** GET /user/current without Authorization. */
export const unauthorizedCheck: SmokeCheck = { name: '401', needs: [], run };
