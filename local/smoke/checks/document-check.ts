import { jsonBody, mediaTypeFailure, member, statusFailure } from '../answer-expectations';
import { API_BASE_PATH, expectedOperations } from '../route-expectations';
import type { CheckFindings, SmokeCheck, SmokeTarget } from '../smoke-check';

/** The served OpenAPI document: public, JSON, OpenAPI 3.1.x, and listing every operation of the route table. */

const OPENAPI_31 = /^3\.1\.\d+$/;
const HTTP_METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function operationsIn(paths: unknown): number {
  if (typeof paths !== 'object' || paths === null) return 0;
  return Object.values(paths).reduce<number>((count, item) => count + Object.keys(item ?? {}).filter((key) => HTTP_METHODS.has(key)).length, 0);
}

function missingOperations(paths: unknown): string[] {
  return expectedOperations()
    .filter(({ method, path }) => typeof member(member(paths, `${API_BASE_PATH}${path}`), method.toLowerCase()) !== 'object')
    .map(({ method, path }) => `${method} ${path}`);
}

// The most common mistake: the stage's URL without the API's prefix, where every path is unknown.
function prefixHint(target: SmokeTarget): string {
  return new URL(target.options.baseUrl).pathname.endsWith(API_BASE_PATH) ? '' : ` (--url should end in ${API_BASE_PATH}, as the ApiUrl stack output does)`;
}

/** Failures of a parsed document: its version and the operations it lists. */
function documentFailures(document: unknown): string[] {
  const failures: string[] = [];
  const version = member(document, 'openapi');
  if (typeof version !== 'string' || !OPENAPI_31.test(version)) failures.push(`expected openapi 3.1.x, got ${JSON.stringify(version) ?? 'none'}`);
  const paths = member(document, 'paths');
  const missing = missingOperations(paths);
  if (typeof paths !== 'object' || paths === null) failures.push('the document has no paths');
  else if (missing.length > 0) failures.push(`the document lacks ${missing.join(', ')}`);
  return failures;
}

async function run(target: SmokeTarget): Promise<CheckFindings> {
  const answer = await target.request({ path: '/openapi.json', headers: { accept: 'application/json' } });
  const wrongStatus = statusFailure(answer, 200);
  if (wrongStatus) return { failures: [`${wrongStatus}${prefixHint(target)}`], summary: '' };
  const document = jsonBody(answer);
  const failures = [mediaTypeFailure(answer, 'application/json'), ...(document === undefined ? ['the body is not JSON'] : documentFailures(document))];
  return {
    failures: failures.filter((failure) => failure !== undefined),
    summary: `OpenAPI ${String(member(document, 'openapi'))}, ${operationsIn(member(document, 'paths'))} operations`,
  };
}

/** GET /openapi.json. */
export const documentCheck: SmokeCheck = { name: 'document', needs: [], run };
