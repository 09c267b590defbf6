import { resetConfiguration } from '../../functions/shared/config/define-config';
import { randomUUID } from 'node:crypto';
import type { RouteDefinition } from '../../functions/shared/http/route-definition';
import { startServer } from '../avatars/fetch/local-servers';
import { quadrantImage } from '../fixtures/images/generate';
import { operationOf } from '../harness/contract';
import { invoke, type InvokeRequest } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * Requests the contract and fuzz tests send: a successful one per route, and path parameter values
 * derived from the document, so that a route added to the table is exercised without new code
 * wherever that is possible.
 */

/** The users a sample may act as: a user, its sub user, and a suspended user. */
export interface SampleUsers {
  readonly user: TestUser;
  readonly sub: TestUser;
  readonly suspended: TestUser;
}

/** Create the users of {@link SampleUsers}. */
export async function createSampleUsers(): Promise<SampleUsers> {
  const user = await createTestUser({ role: 'user', 'first-name': 'Sample', 'last-name': 'User' });
  const sub = await createTestUser({ role: 'sub', parent: user.record.id });
  const suspended = await createTestUser({ role: 'user', status: 'suspended' });
  return { user, sub, suspended };
}

/** A source image on a loopback server that the avatar fetch may reach while it runs. */
export interface SampleImage {
  readonly url: string;
  close(): Promise<void>;
}

/** Serve a 64×48 PNG on 127.0.0.1 and put the server on the fetch's allow list until `close()`. */
export async function startSampleImage(): Promise<SampleImage> {
  const image = await quadrantImage(64, 48, 'png');
  const server = await startServer((_, response) => response.writeHead(200, { 'content-type': 'image/png', 'content-length': image.byteLength }).end(image));
  const previous = process.env.AVATAR_FETCH_ALLOW_HOSTS;
  process.env.AVATAR_FETCH_ALLOW_HOSTS = server.hostPort;
  // The configuration is read once; a test that changes the environment reads it again.
  resetConfiguration();
  return {
    url: `${server.origin}/photo.png`,
    close: async () => {
      if (previous === undefined) delete process.env.AVATAR_FETCH_ALLOW_HOSTS;
      else process.env.AVATAR_FETCH_ALLOW_HOSTS = previous;
      resetConfiguration();
      await server.close();
    },
  };
}

/** What a success sample may use. */
export interface SampleFixture {
  readonly users: SampleUsers;
  readonly image: SampleImage;
}

type Sample = (fixture: SampleFixture) => Promise<InvokeRequest> | InvokeRequest;

const avatarUpload = (image: SampleImage) => ({ avatar: image.url, crop: { left: 8, top: 0, size: 48 } });

const SUCCESS_SAMPLES: Readonly<Record<string, Sample>> = {
  listUsers: ({ users }) => ({ token: users.user.token, query: 'pagination[limit]=5&sort[field]=email&sort[order]=desc&role=user,sub' }),
  getCurrentUser: ({ users }) => ({ token: users.user.token }),
  updateCurrentUser: ({ users }) => ({ token: users.user.token, body: { 'first-name': 'Contract' } }),
  getUser: ({ users }) => ({ token: users.user.token, pathParameters: { 'user-id': users.sub.record.id } }),
  updateUser: ({ users }) => ({ token: users.user.token, pathParameters: { 'user-id': users.sub.record.id }, body: { 'last-name': 'Checked' } }),
  getOpenApi: () => ({}),
  uploadCurrentAvatar: ({ users, image }) => ({ token: users.user.token, body: avatarUpload(image) }),
  uploadUserAvatar: ({ users, image }) => ({ token: users.user.token, pathParameters: { 'user-id': users.sub.record.id }, body: avatarUpload(image) }),
  createCurrentAvatarUpload: ({ users }) => ({ token: users.user.token, body: { 'content-type': 'image/png' } }),
  createUserAvatarUpload: ({ users }) => ({ token: users.user.token, pathParameters: { 'user-id': users.sub.record.id }, body: { 'content-type': 'image/jpeg' } }),
  deleteCurrentAvatar: async ({ users, image }) => {
    const uploaded = await invoke('uploadCurrentAvatar' as never, { token: users.user.token, body: avatarUpload(image) });
    if (uploaded.status !== 201) throw new Error(`The avatar to delete could not be uploaded: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
    return { token: users.user.token, pathParameters: { 'avatar-id': uploaded.body.avatar.id } };
  },
  createLiveTicket: ({ users }) => ({ token: users.user.token }),
};

/**
 * A request route `route` answers with its success status: the listed sample, or for a GET without
 * path parameters a plain call as an active user; undefined when neither applies.
 */
export async function successSample(route: RouteDefinition, fixture: SampleFixture): Promise<InvokeRequest | undefined> {
  const sample = SUCCESS_SAMPLES[route.name];
  if (sample) return sample(fixture);
  if (route.method === 'GET' && !route.path.includes('{')) return route.auth === 'bearer' ? { token: fixture.users.user.token } : {};
  return undefined;
}

type ParameterSchema = { type?: string; format?: string; minimum?: number; maximum?: number };

/** The route's path parameters with their documented schemas. */
export function pathParameterSchemas(route: RouteDefinition): [string, ParameterSchema][] {
  const parameters = operationOf(route.name).parameters ?? [];
  return parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter.schema as ParameterSchema]);
}

/** A value of a path parameter's documented type: `id` for whole numbers, a fresh UUID, or a word. */
export function pathValue(schema: ParameterSchema, id: number): string {
  if (schema.type === 'integer') return String(id);
  return schema.format === 'uuid' ? randomUUID() : 'sample';
}

/** Path parameters of the documented type that name nothing that exists. */
export function missingPathParameters(route: RouteDefinition): Record<string, string> {
  return Object.fromEntries(pathParameterSchemas(route).map(([name, schema]) => [name, pathValue(schema, schema.maximum ?? 2 ** 31)]));
}
