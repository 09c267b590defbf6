import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { uploadUserAvatarRoute } from '../../../functions/avatars/avatar-routes';
import { getS3Client } from '../../../functions/shared/aws/clients';
import { avatarBucketName } from '../../../functions/shared/config/data-config';
import { avatarBucket } from '../../../functions/shared/storage/avatar-bucket';
import { quadrantImage } from '../../fixtures/images/generate';
import { invoke } from '../../harness/invoke';
import { answerAsWithoutListing, listablePrefixes } from '../../harness/iam-answers';
import { createTestUser, type TestUser } from '../../harness/users';
import { objectKeysOf, recordsOf, storedObjectKeys } from './stored-avatars';
import { SMALL_CROP, useAvatarTestBed } from './test-bed';
import { requestUploadForm, uploadedSource } from './upload-forms';

/**
 * The avatar routes against S3 as it answers them in AWS, where they may get, put and delete
 * objects but list none. S3 then answers a read of a missing key 403 AccessDenied, not the 404 the
 * local S3 gives. Whatever the reason an uploaded file is missing (a double submit, a retry after
 * success, a file never posted or removed by the lifecycle rule, a mistyped source), the answer is
 * the documented 422 `upload_not_found`, never a 500. A delete needs no listing: S3 answers 204
 * whether the key is there or not, as the local S3 does, and the routes rely on that.
 */

const bed = useAvatarTestBed();
let photo: Buffer;
let user: TestUser;
let restore: () => void;

beforeAll(async () => {
  photo = await quadrantImage(64, 48, 'png');
  restore = answerAsWithoutListing(getS3Client(), listablePrefixes(uploadUserAvatarRoute.grants));
});

afterAll(() => restore());

beforeEach(async () => {
  user = await createTestUser({ role: 'user' });
});

function useSource(avatar: string, target?: number) {
  const body = { avatar, crop: SMALL_CROP };
  return target === undefined
    ? invoke('uploadCurrentAvatar', { token: user.token, body })
    : invoke('uploadUserAvatar', { token: user.token, pathParameters: { 'user-id': target }, body });
}

function expectUploadNotFound(response: Awaited<ReturnType<typeof useSource>>) {
  expect(response.status).toBe(422);
  expect(response.body).toMatchObject({ code: 'upload_not_found', errors: [{ name: 'avatar', reason: 'names no usable upload of this user' }] });
}

describe('S3 as the upload routes see it in AWS', () => {
  it('answers their read of a missing upload 403 AccessDenied, the error the SDK makes of S3\'s answer', async () => {
    const Key = `${avatarBucket.uploadPrefix}${user.record.id}/4102444800.0d5b2c3e-1111-4111-8111-111111111111`;
    const read = getS3Client().send(new GetObjectCommand({ Bucket: avatarBucketName(), Key }));
    await expect(read).rejects.toBeInstanceOf(S3ServiceException);
    await expect(read).rejects.toMatchObject({ name: 'AccessDenied', $fault: 'client', $metadata: { httpStatusCode: 403 } });
    await expect(getS3Client().send(new HeadObjectCommand({ Bucket: avatarBucketName(), Key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
  });

  it('still serves an upload that is there', async () => {
    const response = await useSource(await uploadedSource(user, photo));
    expect(response.status).toBe(201);
  });
});

describe('a source whose file is missing', () => {
  it('answers 422 to a double submit: the second request finds the file used and deleted', async () => {
    const source = await uploadedSource(user, photo);
    const [first, second] = [await useSource(source), await useSource(source)];
    expect(first.status).toBe(201);
    expectUploadNotFound(second);
  });

  it('answers 422 to a retry after success, on a managed user\'s route too', async () => {
    const sub = await createTestUser({ role: 'sub', parent: user.record.id });
    const source = await uploadedSource(user, photo, sub.record.id);
    expect((await useSource(source, sub.record.id)).status).toBe(201);
    expectUploadNotFound(await useSource(source, sub.record.id));
  });

  it('answers 422 for a form whose file was never posted, or was removed by the lifecycle rule', async () => {
    const { body: form } = await requestUploadForm(user);
    expectUploadNotFound(await useSource(form.source));
  });

  it('answers 422 for a mistyped source, and leaves the real file alone', async () => {
    const source = await uploadedSource(user, photo);
    const mistyped = source.replace(/[0-9a-f](?=[0-9a-f]{3}$)/, (digit) => (digit === '0' ? '1' : '0'));
    expectUploadNotFound(await useSource(mistyped));
    expect((await storedObjectKeys()).filter((key) => key.startsWith(`${avatarBucket.uploadPrefix}${user.record.id}/`))).toHaveLength(1);
  });
});

describe('a delete of an object that is gone', () => {
  it.each([avatarBucket.objectPrefix, avatarBucket.uploadPrefix])('is answered 204 under %s, as S3 answers it whatever the permissions', async (prefix) => {
    const deleted = await getS3Client().send(new DeleteObjectCommand({ Bucket: avatarBucketName(), Key: `${prefix}${user.record.id}/never-stored` }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
  });

  it('lets the avatar delete succeed when the image was already removed (by a crash half-way, or by hand)', async () => {
    const uploaded = await bed.upload(user);
    expect(uploaded.status).toBe(201);
    const [key] = await objectKeysOf(user.record.id);
    await getS3Client().send(new DeleteObjectCommand({ Bucket: avatarBucketName(), Key: key }));

    const response = await bed.remove(user, uploaded.body.avatar.id);

    expect(response.status).toBe(204);
    expect(await recordsOf(user.record.id)).toEqual([]);
  });
});
