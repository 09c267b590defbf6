import * as z from '../../../functions/shared/validation/zod';
import { jsonBody, mediaTypeFailure, member, statusFailure } from '../answer-expectations';
import { corsAnswerFailures } from '../cors-expectations';
import type { ProbeAnswer } from '../http-probe';
import { CURRENT_USER_PATH, currentUserSchema } from '../route-expectations';
import type { CheckFindings, SmokeCheck, SmokeTarget } from '../smoke-check';

/**
 * The caller's own profile with --token: the whole path through API Gateway, the authorizer, a
 * route function and DynamoDB. The User must match the route's contract; the answer must carry an
 * ETag (If-Match needs it) and, as personal data, must not be stored by caches (DESIGN.md 5).
 */

const MOST_ISSUES = 3;

function userFailures(body: unknown): string[] {
  if (body === undefined) return ['the body is not JSON'];
  const parsed = z.safeParse(currentUserSchema(), body);
  if (parsed.success) return [];
  const issues = parsed.error.issues.slice(0, MOST_ISSUES).map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
  return [`the body is not a User (${issues.join('; ')})`];
}

/** Personal data must carry `Cache-Control: no-store` (DESIGN.md section 5): anything else, or nothing, fails. */
function cacheFindings(answer: ProbeAnswer): { failures: string[]; warnings: string[] } {
  const cacheControl = answer.headers.get('cache-control');
  if (cacheControl === null) return { failures: ['no Cache-Control: no-store on personal data'], warnings: [] };
  const directives = cacheControl.split(',').map((item) => item.trim().toLowerCase());
  return directives.includes('no-store') ? { failures: [], warnings: [] } : { failures: [`Cache-Control is "${cacheControl}", expected no-store on personal data`], warnings: [] };
}

async function run(target: SmokeTarget): Promise<CheckFindings> {
  const { token, origin } = target.options;
  const answer = await target.request({
    path: CURRENT_USER_PATH,
    headers: { authorization: `Bearer ${token ?? ''}`, ...(origin === undefined ? {} : { origin }) },
  });
  const wrongStatus = statusFailure(answer, 200);
  if (wrongStatus) return { failures: [wrongStatus], summary: '' };
  const body = jsonBody(answer);
  const failures = [mediaTypeFailure(answer, 'application/json'), ...userFailures(body)].filter((failure) => failure !== undefined);
  const etag = answer.headers.get('etag');
  if (etag === null) failures.push('no ETag');
  const cache = cacheFindings(answer);
  failures.push(...cache.failures);
  if (origin !== undefined) failures.push(...corsAnswerFailures(answer, origin));
  // Id, role and status identify the account; the email and names are personal data and stay out of CI logs.
  const who = `User ${String(member(body, 'id'))} (${String(member(body, 'role'))}, ${String(member(body, 'status'))})`;
  return { failures, warnings: cache.warnings, summary: `200 ${who}, ETag ${etag ?? ''}${origin === undefined ? '' : `, readable from ${origin}`}` };
}

/** GET /user/current with --token. */
export const currentUserCheck: SmokeCheck = { name: 'user', needs: ['token'], run };
