import { enableTelemetry, isMetricLine, useTelemetryCapture, type Line } from '../../observability/telemetry-capture';

/**
 * A read of an uploaded file that S3 refuses (403) is taken as a missing file, as it must be in
 * AWS, where the upload routes may not list the bucket; but it is also what every read gets once a
 * policy regression denies them. So each one is logged with S3's own message and counted
 * (UploadReads `denied`, which the stack alarms on), beside the reads that succeed (`read`) and
 * the 404s of a store that lets the caller list (`missing`). S3's answers are injected on the wire
 * (test/harness/iam-answers.ts): the local S3 enforces no IAM.
 */

enableTelemetry({ metrics: true });
const { avatarBucket } = await import('../../../functions/shared/storage/avatar-bucket');
const { getS3Client } = await import('../../../functions/shared/aws/clients');
const { quadrantImage } = await import('../../fixtures/images/generate');
const { invoke } = await import('../../harness/invoke');
const { answerAsWithoutListing, denyS3Reads } = await import('../../harness/iam-answers');
const { createTestUser } = await import('../../harness/users');
const { objectKeysOf } = await import('./stored-avatars');
const { SMALL_CROP, useAvatarTestBed } = await import('./test-bed');
const { uploadedSource } = await import('./upload-forms');

useAvatarTestBed();
const lines = useTelemetryCapture();
let photo: Buffer;

beforeAll(async () => {
  photo = await quadrantImage(64, 48, 'png');
});

/** The outcomes of the UploadReads lines captured since the last call, and the warnings logged. */
function captured(): { reads: string[]; denials: Line[] } {
  const taken = lines.take();
  return {
    reads: taken.filter((line) => isMetricLine(line) && 'UploadReads' in line).map((line) => line.outcome as string),
    denials: taken.filter((line) => line.message === 'Upload read denied by S3, taken as missing'),
  };
}

async function cropFrom(user: Awaited<ReturnType<typeof createTestUser>>, source: string) {
  return invoke('uploadCurrentAvatar', { token: user.token, body: { avatar: source, crop: SMALL_CROP } });
}

describe('the read of an uploaded file', () => {
  it('that succeeds is counted as read', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    captured();

    const response = await cropFrom(user, source);

    expect(response.status).toBe(201);
    expect(captured()).toEqual({ reads: ['read'], denials: [] });
  });

  it('of a file that is gone, where S3 answers 404, is counted as missing and logs no denial', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    await cropFrom(user, source);
    captured();

    const again = await cropFrom(user, source);

    expect(again.body.code).toBe('upload_not_found');
    expect(captured()).toEqual({ reads: ['missing'], denials: [] });
  });

  it('of a file that is gone, where S3 answers 403 to a caller that may not list, is a 422, logged with S3\'s message and counted as denied', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    await cropFrom(user, source);
    const restore = answerAsWithoutListing(getS3Client(), []);
    captured();

    try {
      const again = await cropFrom(user, source);

      expect(again.status).toBe(422);
      expect(again.body.code).toBe('upload_not_found');
      const { reads, denials } = captured();
      expect(reads).toEqual(['denied']);
      expect(denials).toEqual([expect.objectContaining({ level: 'WARN', s3Code: 'AccessDenied', s3Message: 'Access Denied', key: expect.stringMatching(new RegExp(`^${avatarBucket.uploadPrefix}${user.record.id}/`)) })]);
    } finally {
      restore();
    }
  });

  it('that a policy no longer allows fails every upload from a file, each logged with the policy S3 names and counted as denied', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    const restore = denyS3Reads(getS3Client(), avatarBucket.uploadPrefix);
    captured();

    try {
      const refused = await cropFrom(user, source);

      expect(refused.body.code).toBe('upload_not_found');
      const { reads, denials } = captured();
      expect(reads).toEqual(['denied']);
      expect(denials).toEqual([expect.objectContaining({ s3Code: 'AccessDenied', s3Message: expect.stringContaining('no identity-based policy allows the s3:GetObject action'), s3RequestId: 'D3N13D0000000000' })]);
      expect(await objectKeysOf(user.record.id)).toEqual([]);
    } finally {
      restore();
    }
  });
});
