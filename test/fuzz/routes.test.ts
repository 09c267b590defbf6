import fc from 'fast-check';
import { routes } from '../../functions/routes';
import { type RouteDefinition } from '../../functions/shared/http/route-definition';
import { contractViolations } from '../harness/contract';
import { invoke, tokenFor, type InvokeRequest } from '../harness/invoke';
import { createTestUser } from '../harness/users';
import { installTripwire, type Tripwire } from '../avatars/fetch/connection-tripwire';
import { createSampleUsers, type SampleUsers } from '../contract/samples';
import { body, headers, pathParameters, queryString } from './arbitraries';

/**
 * Every route, fed made-up query strings, path parameters, headers, bodies and tokens: never a
 * 5xx, never a hang, every 4xx an application/problem+json, and every answer as documented.
 * A failure prints fast-check's seed and path; rerun with them to replay the same requests.
 */

const RUNS_PER_ROUTE = 200;
const RUN_TIMEOUT_MS = 5_000;
const ROUTE_TIME_LIMIT_MS = 90_000;

let tripwire: Tripwire;
let users: SampleUsers;
let tokens: Record<string, string | undefined>;

beforeAll(async () => {
  // The avatar routes fetch whatever address they are sent: nothing may leave loopback.
  tripwire = installTripwire();
  users = await createSampleUsers();
  const root = await createTestUser({ role: 'root' });
  tokens = {
    user: users.user.token,
    sub: users.sub.token,
    root: root.token,
    suspended: users.suspended.token,
    expired: await tokenFor(users.user.record.subject, -60),
    garbage: 'not.a.token',
    none: undefined,
  };
});

afterAll(() => {
  tripwire.restore();
  expect(tripwire.attempts).toEqual([]);
});

function requests(route: RouteDefinition): fc.Arbitrary<InvokeRequest> {
  const token = fc.oneof(
    { arbitrary: fc.constantFrom('user', 'sub', 'root'), weight: 8 },
    { arbitrary: fc.constantFrom('suspended', 'expired', 'garbage', 'none'), weight: 1 },
  );
  const knownIds = [users.user.record.id, users.sub.record.id, users.suspended.record.id];
  return fc
    .record({ token, query: queryString(route), pathParameters: pathParameters(route, knownIds), headers, body: body(route) })
    .map(({ token: tokenName, body: bodyPart, headers: picked, ...rest }) => ({
      ...rest,
      ...bodyPart,
      headers: { ...bodyPart.headers, ...picked },
      token: tokens[tokenName],
    }));
}

function describeFailure(request: InvokeRequest, status: number, problems: string[]): string {
  const shown = { ...request, token: request.token === undefined ? undefined : `${request.token.slice(0, 12)}…` };
  return `request ${JSON.stringify(shown)} answered ${status}:\n- ${problems.join('\n- ')}`;
}

describe.each(routes.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))('%s', (_, route) => {
  it(
    'never answers 5xx, answers every 4xx as a problem, and always as documented',
    async () => {
      // The route's first call loads its module graph (its cold start), seconds on a loaded machine:
      // made before the property, so that the property's time limit holds every request to it warm.
      const pathParameters = Object.fromEntries([...route.path.matchAll(/\{([\w-]+)\}/g)].map(([, name]) => [name, '1']));
      await invoke(route.name as never, { token: tokens.root, pathParameters });
      await fc.assert(
        fc.asyncProperty(requests(route), async (request) => {
          const response = await invoke(route.name as never, request);
          const problems: string[] = [];
          if (response.status >= 500) problems.push(`a ${response.status}: ${JSON.stringify(response.body)}`);
          if (response.status >= 400 && response.headers['content-type'] !== 'application/problem+json') {
            problems.push(`a ${response.status} as ${response.headers['content-type']}`);
          }
          problems.push(...contractViolations(route.name, response));
          if (problems.length > 0) throw new Error(describeFailure(request, response.status, problems));
        }),
        { numRuns: RUNS_PER_ROUTE, timeout: RUN_TIMEOUT_MS, interruptAfterTimeLimit: ROUTE_TIME_LIMIT_MS },
      );
    },
    ROUTE_TIME_LIMIT_MS + 30_000,
  );
});
