import { assertMatchesContract, contractViolations, type ContractResponse } from '../harness/contract';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

let ok: ContractResponse;
let user: Record<string, unknown>;

beforeAll(async () => {
  const caller = await createTestUser();
  const { status, headers, body } = await invoke('getCurrentUser', { token: caller.token });
  ok = { status, headers, body };
  user = body;
});

const unauthorized: ContractResponse = {
  status: 401,
  headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_token"' },
  body: { type: 'urn:frontend-api:problem:unauthorized', title: 'Unauthorized', status: 401, detail: 'A valid bearer token is required.', code: 'unauthorized' },
};

describe('the contract check', () => {
  it('accepts answers that match the document, a real one included', () => {
    expect(contractViolations('getCurrentUser', ok)).toEqual([]);
    expect(contractViolations('getCurrentUser', unauthorized)).toEqual([]);
    expect(() => assertMatchesContract('getCurrentUser', ok)).not.toThrow();
  });

  it.each<[string, () => ContractResponse, string]>([
    ['an undocumented status', () => ({ ...ok, status: 500 }), 'status 500 is not documented'],
    ['another content type', () => ({ ...ok, headers: { ...ok.headers, 'content-type': 'text/html' } }), 'content type "text/html" is not documented'],
    ['a missing field', () => ({ ...ok, body: { ...user, email: undefined } }), "must have required property 'email'"],
    ['an extra field', () => ({ ...ok, body: { ...user, password: 'x' } }), 'must NOT have additional properties'],
    ['a value outside its enum', () => ({ ...ok, body: { ...user, role: 'owner' } }), 'must be equal to one of the allowed values'],
    ['a malformed date-time', () => ({ ...ok, body: { ...user, created: 'yesterday' } }), 'must match'],
    ['a missing ETag', () => ({ ...ok, headers: { 'content-type': 'application/json' } }), 'header ETag is missing'],
    ['a 401 without WWW-Authenticate', () => ({ ...unauthorized, headers: { 'content-type': 'application/problem+json' } }), 'header WWW-Authenticate is missing'],
    ['a problem whose status differs', () => ({ ...unauthorized, body: { ...(unauthorized.body as object), status: 403 } }), 'differs from the HTTP status'],
    ['a problem without a code', () => ({ ...unauthorized, body: { ...(unauthorized.body as object), code: undefined } }), "must have required property 'code'"],
    ['a body that is not JSON', () => ({ ...ok, body: '<html>' }), 'is not JSON'],
  ])('finds %s', (_, make, violation) => {
    const response = make();
    expect(contractViolations('getCurrentUser', JSON.parse(JSON.stringify(response)))).toEqual(
      expect.arrayContaining([expect.stringContaining(violation)]),
    );
    expect(() => assertMatchesContract('getCurrentUser', JSON.parse(JSON.stringify(response)))).toThrow(/breaks the OpenAPI contract/);
  });

  it('names an operation the document lacks', () => {
    expect(() => contractViolations('noSuchRoute', ok)).toThrow('The OpenAPI document has no operation noSuchRoute.');
  });
});
