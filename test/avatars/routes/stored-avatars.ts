import { avatarBucketName, tableName } from '../../../functions/shared/config/data-config';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getS3Client } from '../../../functions/shared/aws/clients';
import { avatarBucket } from '../../../functions/shared/storage/avatar-bucket';
import { usersTable } from '../../../functions/shared/tables/users-table';
import { usersKeys as userKeys } from '../../../functions/shared/tables/users-keys';
import type { AvatarRecord } from '../../../functions/avatars/avatar-record';

/**
 * What is really stored, read straight from the test file's own table and bucket: the tests check
 * the consistency promise (every record has its object, every object its record) against these.
 */

/** Every avatar record in the table. */
export async function storedRecords(): Promise<AvatarRecord[]> {
  const records: AvatarRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await getDocumentClient().send(
      new ScanCommand({
        TableName: tableName(usersTable),
        FilterExpression: 'begins_with(sk, :avatar)',
        ExpressionAttributeValues: { ':avatar': userKeys.avatarPrefix },
        ExclusiveStartKey: start,
      }),
    );
    records.push(...((page.Items ?? []) as AvatarRecord[]));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return records;
}

/** Every object in the bucket, whatever its prefix. */
export async function storedObjectKeys(): Promise<string[]> {
  const page = await getS3Client().send(new ListObjectsV2Command({ Bucket: avatarBucketName() }));
  return (page.Contents ?? []).map((object) => object.Key as string).sort();
}

/** The avatar records of one user. */
export async function recordsOf(userId: number): Promise<AvatarRecord[]> {
  return (await storedRecords()).filter((record) => record.userId === userId);
}

/** The keys of the objects stored for one user. */
export async function objectKeysOf(userId: number): Promise<string[]> {
  return (await storedObjectKeys()).filter((key) => key.startsWith(`${avatarBucket.objectPrefix}${userId}/`));
}

/** The bytes of an object, or null when there is none. */
export async function storedObject(key: string): Promise<Buffer | null> {
  try {
    const object = await getS3Client().send(new GetObjectCommand({ Bucket: avatarBucketName(), Key: key }));
    return Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

/** The current avatar id that a profile stores. */
export async function currentAvatarIdOf(userId: number): Promise<string | null> {
  const { Item } = await getDocumentClient().send(new GetCommand({ TableName: tableName(usersTable), Key: userKeys.profile(userId), ConsistentRead: true }));
  return (Item?.currentAvatarId as string | null | undefined) ?? null;
}

/** Asserts the consistency promise: the objects are exactly those the records point at. */
export async function expectRecordsMatchObjects(): Promise<AvatarRecord[]> {
  const [records, keys] = await Promise.all([storedRecords(), storedObjectKeys()]);
  expect(keys).toEqual(records.map((record) => record.objectKey).sort());
  return records;
}
