import { jest } from '@jest/globals';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { avatarRepository, avatarStorage } from '../../../local/tool-composition';
import { reconcileAvatarObjects } from '../../../functions/avatars/avatar-reconciler';
import { getDocumentClient, getS3Client } from '../../../functions/shared/aws/clients';
import { createTestUser, type TestUser } from '../../harness/users';
import { currentAvatarIdOf, expectRecordsMatchObjects, objectKeysOf, recordsOf } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * Failures between the two writes of an upload or a deletion, injected into the real clients (the
 * local DynamoDB and S3 cannot fail on demand): whatever happens, there is never a record without
 * its object; an object without a record is deleted at once or, when that is not possible, by the
 * reconciler.
 */

type Send = (command: unknown, ...rest: unknown[]) => Promise<unknown>;
type Fault = (command: unknown, send: Send) => Promise<unknown> | undefined;

const bed = useAvatarTestBed();
let user: TestUser;

/** Routes every command of `client` through `fault`; `undefined` from it lets the command through. */
function injectFault(client: { send: unknown }, fault: Fault) {
  const send = (client.send as Send).bind(client);
  return jest.spyOn(client as { send: Send }, 'send').mockImplementation((command, ...rest) => fault(command, send) ?? send(command, ...rest));
}

/** An error as the SDK reports a request whose answer never came. */
function lostAnswer(): Error {
  return Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
}

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}

function upload() {
  return bed.upload(user);
}

beforeEach(async () => {
  user = await createTestUser();
});

afterEach(async () => {
  jest.restoreAllMocks();
  await expectRecordsMatchObjects();
});

describe('a failure between the object put and the record write of an upload', () => {
  it('leaves no object and no record when the record write fails without reaching DynamoDB', async () => {
    injectFault(getDocumentClient(), (command) => (command instanceof TransactWriteCommand ? Promise.reject(lostAnswer()) : undefined));

    const response = await upload();

    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(await recordsOf(user.record.id)).toEqual([]);
    expect(await objectKeysOf(user.record.id)).toEqual([]);
    expect(await currentAvatarIdOf(user.record.id)).toBeNull();
  });

  it('leaves no object and no record when DynamoDB cancels the transaction', async () => {
    injectFault(getDocumentClient(), (command) => (command instanceof TransactWriteCommand ? Promise.reject(cancelled('None', 'ThrottlingError')) : undefined));

    const response = await upload();

    expect(response.status).toBe(503);
    expect(await recordsOf(user.record.id)).toEqual([]);
    expect(await objectKeysOf(user.record.id)).toEqual([]);
  });

  it('answers 409 and leaves nothing when other changes win every attempt', async () => {
    const transaction = injectFault(getDocumentClient(), (command) =>
      command instanceof TransactWriteCommand ? Promise.reject(cancelled('None', 'ConditionalCheckFailed')) : undefined,
    );

    const response = await upload();

    expect(response.status).toBe(409);
    expect(transaction.mock.calls.filter(([command]) => command instanceof TransactWriteCommand)).toHaveLength(8);
    expect(await recordsOf(user.record.id)).toEqual([]);
    expect(await objectKeysOf(user.record.id)).toEqual([]);
  });

  it('answers 201 and keeps both when the record was written but its answer was lost', async () => {
    injectFault(getDocumentClient(), (command, send) =>
      command instanceof TransactWriteCommand ? send(command).then(() => Promise.reject(lostAnswer())) : undefined,
    );

    const response = await upload();

    expect(response.status).toBe(201);
    expect(await currentAvatarIdOf(user.record.id)).toBe(response.body.avatar.id);
    expect(await recordsOf(user.record.id)).toHaveLength(1);
  });

  it('keeps the object for the reconciler when the outcome cannot be established, and the reconciler deletes it', async () => {
    injectFault(getDocumentClient(), (command) =>
      command instanceof TransactWriteCommand || command instanceof UpdateCommand ? Promise.reject(lostAnswer()) : undefined,
    );

    const response = await upload();
    jest.restoreAllMocks();

    expect(response.status).toBe(503);
    expect(await recordsOf(user.record.id)).toEqual([]);
    const [orphan] = await objectKeysOf(user.record.id);
    expect(orphan).toBeDefined();
    const report = await reconcileAvatarObjects(avatarStorage(), avatarRepository(), { graceMs: 0 });
    expect(report.deleted).toEqual([orphan]);
    expect(await objectKeysOf(user.record.id)).toEqual([]);
  });
});

describe('a failure after the record of a deletion is gone', () => {
  it('answers 204 and leaves the object to the reconciler when S3 fails to delete it', async () => {
    const uploaded = await upload();
    const [key] = await objectKeysOf(user.record.id);
    injectFault(getS3Client(), (command) => (command instanceof DeleteObjectCommand ? Promise.reject(lostAnswer()) : undefined));

    const response = await bed.remove(user, uploaded.body.avatar.id);
    jest.restoreAllMocks();

    expect(response.status).toBe(204);
    expect(await recordsOf(user.record.id)).toEqual([]);
    expect(await objectKeysOf(user.record.id)).toEqual([key]);
    await reconcileAvatarObjects(avatarStorage(), avatarRepository(), { graceMs: 0 });
    expect(await objectKeysOf(user.record.id)).toEqual([]);
  });

  it('keeps record and object when the record delete fails', async () => {
    const uploaded = await upload();
    injectFault(getDocumentClient(), (command) => (command instanceof TransactWriteCommand ? Promise.reject(lostAnswer()) : undefined));

    const response = await bed.remove(user, uploaded.body.avatar.id);
    jest.restoreAllMocks();

    expect(response.status).toBe(503);
    expect(await currentAvatarIdOf(user.record.id)).toBe(uploaded.body.avatar.id);
    expect(await recordsOf(user.record.id)).toHaveLength(1);
  });
});
