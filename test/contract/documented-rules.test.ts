import fc from 'fast-check';
import { ValidationError } from '../../functions/shared/errors';
import { versionFromIfMatch } from '../../functions/shared/http/if-match';
import { compileDocumentSchema, operationOf } from '../harness/contract';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * The rules a contract fuzzer once found only in prose (issue 39 item 6), now in the OpenAPI
 * document's schemas: what the document accepts, the API accepts, and what it refuses, the API
 * refuses with a 400. Each is checked through the document as a validator reads it (Ajv), against
 * the service's own validation and over the route.
 */

let user: TestUser;

beforeAll(async () => {
  user = await createTestUser({ role: 'user', username: `rules-${Date.now()}` });
});

function documented(operation: string, name: string) {
  const parameter = operationOf(operation).parameters?.find((candidate) => candidate.name === name);
  if (!parameter) throw new Error(`${operation} documents no parameter ${name}.`);
  return { parameter, validate: compileDocumentSchema(parameter.schema) };
}

/** Whether the service takes `header` as an If-Match (any answer but a 400 for its syntax). */
function acceptsIfMatch(header: string): boolean {
  try {
    versionFromIfMatch(header, 1);
    return true;
  } catch (error) {
    return !(error instanceof ValidationError);
  }
}

describe('If-Match, as documented', () => {
  const { validate } = documented('updateCurrentUser', 'If-Match');

  it('refuses an empty value, as the API does with a 400', async () => {
    const answer = await invoke('updateCurrentUser', { token: user.token, headers: { 'If-Match': '' }, body: { 'first-name': 'Empty' } });

    expect(validate('')).toBe(false);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ name: 'If-Match' })]);
  });

  it('accepts exactly the values the service takes, whatever they are made of', () => {
    const part = fc.constantFrom(' ', '\t', ',', '"', 'W/', '*', '1', 'a', '\u0080', '\u00ff', '\u0100', 'é', '\\');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const header = parts.join('');
        expect(validate(header)).toBe(acceptsIfMatch(header));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the email and username filters of GET /user, as documented', () => {
  const { parameter, validate } = documented('listUsers', 'prefix');

  it('are one form-style object parameter of at most one member, each sent as a parameter of its own', () => {
    expect(parameter).toMatchObject({ in: 'query', style: 'form', explode: true });
    expect(Object.keys((parameter.schema as { properties: object }).properties)).toEqual(['email', 'username']);
  });

  it.each([
    ['email alone', { email: 'user' }, 'email=user', 200],
    ['username alone', { username: 'rules' }, 'username=rules', 200],
    ['both', { email: 'user', username: 'rules' }, 'email=user&username=rules', 400],
  ])('%s: the document and the API agree', async (_case, value, query, status) => {
    const answer = await invoke('listUsers', { token: user.token, query });

    expect(validate(value)).toBe(status === 200);
    expect(answer.status).toBe(status);
    if (status === 400) expect(answer.body.errors).toEqual([expect.objectContaining({ name: 'username' })]);
  });
});
