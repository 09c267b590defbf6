import { CORS_ALLOWED_REQUEST_HEADERS } from '../../../functions/shared/http/cors-policy';
import { preflightFailures } from '../cors-expectations';
import { CURRENT_USER_PATH, methodsOf } from '../route-expectations';
import type { CheckFindings, SmokeCheck, SmokeTarget } from '../smoke-check';

/**
 * The CORS preflight a browser sends before a page of --origin updates a profile: OPTIONS with the
 * origin, the method and the non-safelisted headers it will send. API Gateway answers it itself,
 * without a token (lib/cors-preflight.ts); locally the local gateway does.
 */

/** The headers the frontend's profile update sends that are not CORS-safelisted. */
const REQUEST_HEADERS = CORS_ALLOWED_REQUEST_HEADERS.map((name) => name.toLowerCase()).join(',');

async function run(target: SmokeTarget): Promise<CheckFindings> {
  const origin = target.options.origin ?? '';
  const methods = methodsOf(CURRENT_USER_PATH);
  // The method that really needs a preflight: a GET with only safelisted headers would not.
  const method = methods.find((candidate) => candidate !== 'GET') ?? 'GET';
  const answer = await target.request({
    method: 'OPTIONS',
    path: CURRENT_USER_PATH,
    // As a browser lists them: lower case, comma-separated (https://fetch.spec.whatwg.org/#cors-preflight-fetch).
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': REQUEST_HEADERS },
  });
  const allowed = answer.headers.get('access-control-allow-methods') ?? '';
  return {
    failures: preflightFailures(answer, origin, methods),
    summary: `${answer.status} for ${origin}, methods ${allowed}, headers ${answer.headers.get('access-control-allow-headers') ?? ''}`,
  };
}

/** OPTIONS /user/current from --origin. */
export const preflightCheck: SmokeCheck = { name: 'preflight', needs: ['origin'], run };
