import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UploadedImages } from '../../../functions/avatars/uploads/uploaded-images';
import { newUploadName, uploadObjectKey, uploadSource } from '../../../functions/avatars/uploads/upload-name';
import { getS3Client } from '../../../functions/shared/aws/clients';
import { avatarBucketName } from '../../../functions/shared/config/data-config';
import { resetConfiguration } from '../../../functions/shared/config/define-config';
import { avatarBucket } from '../../../functions/shared/storage/avatar-bucket';
import { quadrantImage } from '../../fixtures/images/generate';
import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { colourOf, decode, pixelAt } from '../image/pixel-assertions';
import { expectRecordsMatchObjects, storedObjectKeys } from './stored-avatars';
import { SMALL_CROP, useAvatarTestBed } from './test-bed';
import type { UploadForm as UploadFormBody } from '../../../clients/web/src/index.js';
import { postToForm, requestUploadForm, uploadedSource } from './upload-forms';

/**
 * An avatar from the user's own file: an upload form (a presigned S3 POST), the file posted straight
 * to the local S3, then the avatar upload with the form's `source`. The file never passes through
 * the API; the service reads it with the SDK, checks it as it checks a fetched image, and deletes it.
 */

const MiB = 1024 * 1024;

const bed = useAvatarTestBed();
let photo: Buffer;
let parent: TestUser;
let sub: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  photo = await quadrantImage(64, 48, 'png');
  parent = await createTestUser({ role: 'user' });
  sub = await createTestUser({ role: 'sub', parent: parent.record.id });
  stranger = await createTestUser({ role: 'user' });
});

afterEach(async () => {
  // Every avatar record has its object, whatever the test did with uploads.
  await expectRecordsMatchObjects();
});

/** The upload files left in the bucket. */
async function uploadKeys(): Promise<string[]> {
  return (await storedObjectKeys()).filter((key) => key.startsWith(avatarBucket.uploadPrefix));
}

function useSource(user: TestUser, avatar: string, target?: number) {
  const body = { avatar, crop: SMALL_CROP };
  return target === undefined
    ? invoke('uploadCurrentAvatar', { token: user.token, body })
    : invoke('uploadUserAvatar', { token: user.token, pathParameters: { 'user-id': target }, body });
}

/** The JSON policy of a form, decoded from its `Policy` field. */
function policyOf(form: UploadFormBody): { expiration: string; conditions: unknown[] } {
  return JSON.parse(Buffer.from(form.fields.Policy as string, 'base64').toString('utf8'));
}

describe('the upload form', () => {
  it('pins the key under the user\'s upload prefix, the byte cap, the content type and a 5-minute expiry', async () => {
    const user = await createTestUser();
    const before = Date.now();
    const { status, body } = await requestUploadForm(user, 'image/jpeg');

    expect(status).toBe(201);
    const form = body as UploadFormBody;
    expect(form.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${avatarBucketName()}$`));
    expect(form.source).toMatch(/^upload:\d{10}\.[0-9a-f-]{36}$/);
    const key = form.fields.key as string;
    expect(key.startsWith(`${avatarBucket.uploadPrefix}${user.record.id}/`)).toBe(true);
    expect(form.fields['Content-Type']).toBe('image/jpeg');
    const expires = Date.parse(form.expires);
    expect(expires - before).toBeGreaterThan(299_000);
    expect(expires - before).toBeLessThanOrEqual(301_000);
    const policy = policyOf(form);
    expect(Math.abs(Date.parse(policy.expiration) - expires)).toBeLessThanOrEqual(1000);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([['content-length-range', 1, 10 * MiB], { key }, { 'Content-Type': 'image/jpeg' }, { bucket: avatarBucketName() }]),
    );
  });

  it('gives every form its own unguessable key', async () => {
    const user = await createTestUser();
    const forms = await Promise.all([requestUploadForm(user), requestUploadForm(user)]);
    expect(new Set(forms.map(({ body }) => body.fields.key)).size).toBe(2);
  });

  it.each([
    ['a content type that is not an image', { 'content-type': 'text/html' }, 'content-type'],
    ['an SVG (scripts, not pixels)', { 'content-type': 'image/svg+xml' }, 'content-type'],
    ['no content type', {}, 'content-type'],
    ['an unknown field', { 'content-type': 'image/png', key: 'avatars/1/mine.webp' }, 'key'],
  ])('answers 400 for %s', async (_, body, field) => {
    const response = await invoke('createCurrentAvatarUpload', { token: parent.token, body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { name: string }) => error.name)).toContain(field);
  });

  it('is given for a managed user, and answers 404 for a user the caller may not manage', async () => {
    const managed = await requestUploadForm(parent, 'image/png', sub.record.id);
    expect(managed.status).toBe(201);
    expect(managed.body.fields.key.startsWith(`${avatarBucket.uploadPrefix}${sub.record.id}/`)).toBe(true);

    const foreign = await requestUploadForm(stranger, 'image/png', sub.record.id);
    expect(foreign.status).toBe(404);
  });
});

describe('an avatar from a posted file', () => {
  it('crops the file, serves the avatar, and deletes the file', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    expect(await uploadKeys()).toHaveLength(1);

    const { status, body } = await useSource(user, source);

    expect(status).toBe(201);
    expect(body.avatar.enabled).toBe(true);
    const served = await fetch(body.avatar.url);
    expect(served.status).toBe(200);
    const pixels = await decode(Buffer.from(await served.arrayBuffer()));
    expect(colourOf(pixelAt(pixels, 4, 4))).toBe('red');
    expect(await uploadKeys()).toEqual([]);
    // Nothing was fetched over HTTP.
    expect(bed.source.takeRequests()).toEqual([]);
  });

  it('takes a managed user\'s file on that user\'s avatar route only', async () => {
    const source = await uploadedSource(parent, photo, sub.record.id);

    const asOwnAvatar = await useSource(parent, source);
    expect(asOwnAvatar.status).toBe(422);
    expect(asOwnAvatar.body.code).toBe('upload_not_found');

    const forSub = await useSource(parent, source, sub.record.id);
    expect(forSub.status).toBe(201);
    expect(await uploadKeys()).toEqual([]);
  });
});

describe('sources and files the service refuses', () => {
  it('answers 422 for a replayed source: the file was used and deleted', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    expect((await useSource(user, source)).status).toBe(201);

    const replay = await useSource(user, source);

    expect(replay.status).toBe(422);
    expect(replay.body).toMatchObject({ code: 'upload_not_found', errors: [{ name: 'avatar', reason: 'names no usable upload of this user' }] });
  });

  it("answers 422 for another user's source, and leaves that user's file alone", async () => {
    const owner = await createTestUser();
    const source = await uploadedSource(owner, photo);

    const theft = await useSource(stranger, source);

    expect(theft.status).toBe(422);
    expect(theft.body.code).toBe('upload_not_found');
    expect(await uploadKeys()).toHaveLength(1);
    expect((await useSource(owner, source)).status).toBe(201);
  });

  it.each([
    ['a source no form gave out', 'upload:1234567890.not-a-uuid'],
    ['a source that was never posted', 'upload:4102444800.0d5b2c3e-1111-4111-8111-111111111111'],
  ])('answers 422 for %s', async (_, source) => {
    const response = await useSource(parent, source);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('upload_not_found');
  });

  it('answers 422 for a file stored after its form expired, which a store that ignores the policy (the local S3) accepts, and deletes it', async () => {
    const user = await createTestUser();
    const expired = newUploadName(new Date(Date.now() - 20 * 60 * 1000));
    await getS3Client().send(new PutObjectCommand({ Bucket: avatarBucketName(), Key: uploadObjectKey(user.record.id, expired), Body: photo, ContentType: 'image/png' }));

    const response = await useSource(user, uploadSource(expired));

    expect(response.status).toBe(422);
    expect(response.body.code).toBe('upload_not_found');
    expect(response.body.detail).toMatch(/after its upload form had expired/);
    expect(await uploadKeys()).toEqual([]);
  });

  it('answers 413 for a file over the byte cap, which the local S3 stores whatever the form said, and deletes it', async () => {
    process.env.AVATAR_MAX_BYTES = String(MiB);
    resetConfiguration();
    try {
      const user = await createTestUser();
      const { body: form } = await requestUploadForm(user);
      expect(policyOf(form).conditions).toContainEqual(['content-length-range', 1, MiB]);
      const oversized = Buffer.concat([photo, Buffer.alloc(2 * MiB)]);
      // The local S3 does not enforce content-length-range (S3 itself answers 400 EntityTooLarge).
      expect(await postToForm(form, oversized)).toBe(204);

      const response = await useSource(user, form.source);

      expect(response.status).toBe(413);
      expect(response.body.errors).toEqual([{ name: 'avatar', reason: `must be at most ${MiB} bytes` }]);
      expect(await uploadKeys()).toEqual([]);
    } finally {
      delete process.env.AVATAR_MAX_BYTES;
      resetConfiguration();
    }
  });

  it('answers 422 for a file that is not an image, whatever type it declared, and deletes it', async () => {
    const user = await createTestUser();
    const { body: form } = await requestUploadForm(user, 'image/png');
    expect(await postToForm(form, Buffer.from('<script>alert(1)</script>'), 'image/png')).toBe(204);

    const response = await useSource(user, form.source);

    expect(response.status).toBe(422);
    expect(response.body.code).toBe('unsupported_image');
    expect(await uploadKeys()).toEqual([]);
  });

  it('answers 422 for a crop outside the image, and deletes the file', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);

    const response = await invoke('uploadCurrentAvatar', { token: user.token, body: { avatar: source, crop: { left: 60, top: 0, size: 32 } } });

    expect(response.status).toBe(422);
    expect(response.body.code).toBe('crop_outside_image');
    expect(await uploadKeys()).toEqual([]);
  });
});

describe('UploadedImages against the local S3', () => {
  it('refuses a file older than an upload may live, whatever the store still holds', async () => {
    const user = await createTestUser();
    const { body: form } = await requestUploadForm(user);
    expect(await postToForm(form, photo)).toBe(204);
    const images = new UploadedImages(getS3Client(), avatarBucketName());
    const dayAndMinuteLater = new Date(Date.now() + (24 * 60 + 1) * 60 * 1000);

    await expect(images.read(user.record.id, form.source, MiB, dayAndMinuteLater)).rejects.toMatchObject({ status: 422, code: 'upload_not_found' });
    await expect(images.read(user.record.id, form.source, MiB)).resolves.toEqual(photo);
    await images.discard(user.record.id, form.source);
    expect(await uploadKeys()).toEqual([]);
  });
});
