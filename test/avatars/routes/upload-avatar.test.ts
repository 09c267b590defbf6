import sharp from 'sharp';
import { sha256Hex } from '../../../functions/avatars/avatar-object-key';
import { avatarBucket } from '../../../functions/shared/storage/avatar-bucket';
import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { colourOf, decode, pixelAt } from '../image/pixel-assertions';
import { currentAvatarIdOf, expectRecordsMatchObjects, storedObject, storedRecords } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * Avatar uploads end to end, through the real authorizer and handlers: the image comes from a
 * loopback server on the allow list, the avatar goes to the local S3 and its record to DynamoDB
 * Local. A tripwire stops (and records) any connection this process tries outside loopback.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const bed = useAvatarTestBed();
let root: TestUser;
let parent: TestUser;
let sub: TestUser;
let otherParent: TestUser;
let otherSub: TestUser;

/** A crop inside the 64×48 quadrant image: 48×48 from x = 8, red top-left, yellow bottom-right. */
const CROP = { left: 8, top: 0, size: 48 };

beforeAll(async () => {
  root = await createTestUser({ role: 'root' });
  parent = await createTestUser({ role: 'user' });
  sub = await createTestUser({ role: 'sub', parent: parent.record.id });
  otherParent = await createTestUser({ role: 'user' });
  otherSub = await createTestUser({ role: 'sub', parent: otherParent.record.id });
});

describe('POST /user/current/avatar', () => {
  it('crops, stores and enables the avatar, answering 201 with it', async () => {
    const user = await createTestUser();
    bed.source.takeRequests();

    const response = await bed.upload(user, CROP);

    expect(response.status).toBe(201);
    const { avatar } = response.body;
    expect(avatar).toEqual({ id: expect.stringMatching(UUID), created: expect.any(String), enabled: true, provider: 's3', url: expect.any(String) });
    expect(new Date(avatar.created).toISOString()).toBe(avatar.created);
    expect(bed.source.takeRequests()).toEqual(['/photo.png']);
    expect(await currentAvatarIdOf(user.record.id)).toBe(avatar.id);
  });

  it('keeps a record that points at an object whose key holds the SHA-256 of its bytes', async () => {
    const user = await createTestUser();

    const { body } = await bed.upload(user, CROP);

    const record = (await storedRecords()).find((candidate) => candidate.avatarId === body.avatar.id);
    expect(record).toMatchObject({ userId: user.record.id, created: body.avatar.created, provider: 's3' });
    const bytes = await storedObject(record!.objectKey);
    expect(bytes).not.toBeNull();
    expect(record!.objectKey).toBe(`${avatarBucket.objectPrefix}${user.record.id}/${body.avatar.id}/${sha256Hex(bytes!)}.webp`);
    expect(body.avatar.url.endsWith(`/${record!.objectKey}`)).toBe(true);
    await expectRecordsMatchObjects();
  });

  it('serves the avatar at its url to a plain GET: the cropped WebP, immutable and cacheable', async () => {
    const user = await createTestUser();
    const { body } = await bed.upload(user, CROP);

    const response = await fetch(body.avatar.url);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=300, immutable');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 48, height: 48 });
    const pixels = await decode(bytes);
    expect(colourOf(pixelAt(pixels, 4, 4))).toBe('red');
    expect(colourOf(pixelAt(pixels, 43, 43))).toBe('yellow');
  });

  it('lists the avatars in GET /user/current newest first, only the newest enabled', async () => {
    const user = await createTestUser();
    const first = await bed.upload(user, CROP);
    const before = await invoke('getCurrentUser', { token: user.token });
    const second = await bed.upload(user, { ...CROP, flip: 'horizontal' });

    const response = await invoke('getCurrentUser', { token: user.token });

    expect(response.status).toBe(200);
    expect(response.body.avatars.current).toBe(second.body.avatar.id);
    expect(response.body.avatars.items).toEqual([
      { ...second.body.avatar, enabled: true },
      { ...first.body.avatar, enabled: false },
    ]);
    expect(response.headers.etag).not.toBe(before.headers.etag);
  });

  it('stores the same image uploaded twice as two avatars with objects of their own', async () => {
    const user = await createTestUser();

    const first = await bed.upload(user, CROP);
    const second = await bed.upload(user, CROP);

    expect(second.body.avatar.url).not.toBe(first.body.avatar.url);
    const hashOf = (url: string) => url.split('/').pop();
    expect(hashOf(second.body.avatar.url)).toBe(hashOf(first.body.avatar.url));
    await expectRecordsMatchObjects();
  });
});

describe('POST /user/{user-id}/avatar: the access rules of profile updates', () => {
  async function uploadFor(caller: TestUser, target: TestUser | number) {
    const userId = typeof target === 'number' ? target : target.record.id;
    return invoke('uploadUserAvatar', { token: caller.token, pathParameters: { 'user-id': userId }, body: { avatar: bed.photoUrl, crop: CROP } });
  }

  it('lets root upload for any user, storing the avatar under that user', async () => {
    const target = await createTestUser({ role: 'admin' });

    const response = await uploadFor(root, target);

    expect(response.status).toBe(201);
    expect(await currentAvatarIdOf(target.record.id)).toBe(response.body.avatar.id);
    expect(response.body.avatar.url).toContain(`/${avatarBucket.objectPrefix}${target.record.id}/`);
  });

  it('lets a user upload for its own sub user', async () => {
    const response = await uploadFor(parent, sub);

    expect(response.status).toBe(201);
    expect(await currentAvatarIdOf(sub.record.id)).toBe(response.body.avatar.id);
  });

  it.each([
    ["another user's sub user, for a user", () => [parent, otherSub] as const],
    ['its parent, for a sub user', () => [sub, parent] as const],
    ['a root user, for an admin', async () => [await createTestUser({ role: 'admin' }), root] as const],
  ])('answers 404 for %s, before fetching anything', async (_, pair) => {
    const [caller, target] = await pair();
    const recordsBefore = (await storedRecords()).length;
    bed.source.server.takeConnections();
    bed.source.takeRequests();

    const response = await uploadFor(caller, target);

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 404, code: 'not_found', detail: 'No such user.' });
    expect(bed.source.server.takeConnections()).toBe(0);
    expect(bed.source.takeRequests()).toEqual([]);
    expect(await storedRecords()).toHaveLength(recordsBefore);
  });

  it('answers 404 for a user that does not exist, like one out of reach', async () => {
    bed.source.server.takeConnections();

    const response = await uploadFor(parent, 9_000_000);

    expect(response.status).toBe(404);
    expect(response.body.detail).toBe('No such user.');
    expect(bed.source.server.takeConnections()).toBe(0);
  });
});
