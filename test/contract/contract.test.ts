import { DEFAULT_MAX_BODY_BYTES } from '../../functions/shared/http/json-body';
import { routes } from '../../functions/routes';
import { type RouteDefinition } from '../../functions/shared/http/route-definition';
import { assertMatchesContract } from '../harness/contract';
import { invoke, type InvokeRequest, type InvokeResponse } from '../harness/invoke';
import {
  createSampleUsers,
  missingPathParameters,
  pathParameterSchemas,
  pathValue,
  startSampleImage,
  successSample,
  type SampleFixture,
} from './samples';

/**
 * Every route's answers, success and error, checked against the OpenAPI document: the status is
 * the one expected and documented, the body and headers match the documented schema.
 */

let fixture: SampleFixture;

beforeAll(async () => {
  fixture = { users: await createSampleUsers(), image: await startSampleImage() };
});

afterAll(async () => {
  await fixture?.image.close();
});

/** Path parameters of a valid form (validation passes, the value may name nothing). */
function wellFormedPath(route: RouteDefinition): Record<string, string> {
  return Object.fromEntries(pathParameterSchemas(route).map(([name, schema]) => [name, pathValue(schema, fixture.users.user.record.id)]));
}

/** A request that passes the authorizer (when the route has one) and names well-formed path parameters. */
function baseRequest(route: RouteDefinition, extra: InvokeRequest = {}): InvokeRequest {
  return { ...(route.auth === 'bearer' ? { token: fixture.users.user.token } : {}), pathParameters: wellFormedPath(route), ...extra };
}

async function expectAnswer(route: RouteDefinition, request: InvokeRequest, status: number): Promise<InvokeResponse> {
  const response = await invoke(route.name as never, request);
  expect(response.status).toBe(status);
  assertMatchesContract(route.name, response);
  return response;
}

describe.each(routes.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))('%s', (_, route) => {
  it(`answers ${route.docs.success.status} as documented`, async () => {
    const request = await successSample(route, fixture);
    if (!request) throw new Error(`No success sample for ${route.name}: add one to test/contract/samples.ts.`);
    await expectAnswer(route, request, route.docs.success.status);
  });

  it('answers 400 naming an unknown query parameter', async () => {
    const response = await expectAnswer(route, baseRequest(route, { query: 'no-such-parameter=1' }), 400);
    expect(response.body.errors).toContainEqual({ name: 'no-such-parameter', reason: 'Unknown parameter.' });
  });

  it('answers 415 to a body that is not JSON', async () => {
    await expectAnswer(route, baseRequest(route, { rawBody: 'plain text', headers: { 'Content-Type': 'text/plain' } }), 415);
  });

  it('answers 413 to a body over its limit', async () => {
    const limit = route.contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const rawBody = JSON.stringify({ padding: 'x'.repeat(limit) });
    await expectAnswer(route, baseRequest(route, { rawBody, headers: { 'Content-Type': 'application/json' } }), 413);
  });

  if (!route.contract.body) {
    it('answers 400 to a body it does not take', async () => {
      await expectAnswer(route, baseRequest(route, { body: { unexpected: true } }), 400);
    });
  }

  if (route.contract.body) {
    it('answers 400 to malformed JSON', async () => {
      const response = await expectAnswer(route, baseRequest(route, { rawBody: '{"unfinished":', headers: { 'Content-Type': 'application/json' } }), 400);
      expect(response.body.code).toBe('malformed_body');
    });
  }

  if (route.auth === 'bearer') {
    it('answers 401 with WWW-Authenticate without a token', async () => {
      const response = await expectAnswer(route, { pathParameters: wellFormedPath(route) }, 401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    it('answers 401 to a token it cannot verify', async () => {
      await expectAnswer(route, baseRequest(route, { token: 'eyJhbGciOiJub25lIn0.e30.' }), 401);
    });

    it('answers 403 to a suspended user', async () => {
      await expectAnswer(route, baseRequest(route, { token: fixture.users.suspended.token }), 403);
    });
  }

  if (route.docs.errors.includes(404) && pathParameterSchemas(route).length > 0) {
    it('answers 404 for a path naming nothing that exists', async () => {
      const request = await successSample(route, fixture);
      await expectAnswer(route, { ...baseRequest(route), ...request, pathParameters: missingPathParameters(route) }, 404);
    });
  }

  if (route.contract.requestHeaders?.includes('If-Match')) {
    it('answers 412 to an If-Match naming another version', async () => {
      const request = await successSample(route, fixture);
      if (!request) throw new Error(`No success sample for ${route.name}: add one to test/contract/samples.ts.`);
      await expectAnswer(route, { ...request, headers: { ...request.headers, 'If-Match': '"0"' } }, 412);
    });
  }
});
