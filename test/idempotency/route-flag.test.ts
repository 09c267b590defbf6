import { openApiDocument } from '../../functions/openapi/document';
import { routes } from '../../functions/routes';
import { routeGrants } from '../../functions/shared/deployment/route-grants';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';
import { createSampleUsers, startSampleImage, successSample, type SampleFixture } from '../contract/samples';
import { invoke, type InvokeRequest } from '../harness/invoke';
import { freshKey, idempotencyRecords } from './keyed-requests';

/**
 * `idempotencyKey` is the one declaration that a route takes an `Idempotency-Key` (issue 39 item
 * 5): from it alone the HTTP layer applies the layer, the stack grants the idempotency table and
 * the document lists the header. Every route of the table is checked, so a route added with the
 * flag cannot lack one of the three, and a route without it cannot have one.
 */

let fixture: SampleFixture;

beforeAll(async () => {
  fixture = { users: await createSampleUsers(), image: await startSampleImage() };
});

afterAll(async () => {
  await fixture?.image.close();
});

async function sample(route: RouteDefinition): Promise<InvokeRequest> {
  const request = await successSample(route, fixture);
  if (!request) throw new Error(`No success sample for ${route.name}: add one to test/contract/samples.ts.`);
  return request;
}

/** `request` with `key` as its Idempotency-Key. */
const keyed = (request: InvokeRequest, key: string): InvokeRequest => ({ ...request, headers: { ...request.headers, 'Idempotency-Key': key } });

/** The records of the idempotency table written by `act`. */
async function recordsWrittenBy(act: () => Promise<unknown>): Promise<number> {
  const before = new Set((await idempotencyRecords()).map((record) => record.id));
  await act();
  return (await idempotencyRecords()).filter((record) => !before.has(record.id)).length;
}

const headerNames = (route: RouteDefinition): string[] =>
  ((openApiDocument().paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase()] as { parameters?: { name: string; in: string }[] }).parameters ?? [])
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => parameter.name);

const keyedRoutes = routes.filter((route) => route.idempotencyKey === true);
const otherRoutes = routes.filter((route) => route.idempotencyKey !== true);

describe.each(keyedRoutes.map((route) => [route.name, route] as const))('the keyed route %s', (_name, route) => {
  it('answers a retry with its first answer, from one record, and the document lists the header', async () => {
    const request = keyed(await sample(route), freshKey());
    let answers: { status: number; body: unknown }[] = [];

    const written = await recordsWrittenBy(async () => {
      answers = [await invoke(route.name as never, request), await invoke(route.name as never, request)].map(({ status, body }) => ({ status, body }));
    });

    expect(answers[0]?.status).toBe(route.docs.success.status);
    expect(answers[1]).toEqual(answers[0]);
    expect(written).toBe(1);
    expect(headerNames(route)).toContain('Idempotency-Key');
    expect(routeGrants(route).idempotency).toBeDefined();
  });
});

describe.each(otherRoutes.map((route) => [route.name, route] as const))('the route %s, which takes no key', (_name, route) => {
  it('answers a request with an Idempotency-Key as without one, records nothing, and the document lists no such header', async () => {
    const request = keyed(await sample(route), freshKey());

    const written = await recordsWrittenBy(async () => expect((await invoke(route.name as never, request)).status).toBe(route.docs.success.status));

    expect(written).toBe(0);
    expect(headerNames(route)).not.toContain('Idempotency-Key');
    expect(routeGrants(route).idempotency).toBeUndefined();
  });
});
