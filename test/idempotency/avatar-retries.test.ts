import type { ServerResponse } from 'node:http';
import { quadrantImage } from '../fixtures/images/generate';
import { signIn } from '../../clients/web/src/index.js';
import { useLocalGateway } from '../harness/local-gateway';
import { createTestUser } from '../harness/users';
import { expectRecordsMatchObjects, recordsOf, storedObjectKeys } from '../avatars/routes/stored-avatars';
import { SMALL_CROP, useAvatarTestBed } from '../avatars/routes/test-bed';
import { uploadedSource } from '../avatars/routes/upload-forms';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { IDEMPOTENCY_ATTRIBUTES } from '../../functions/shared/tables/idempotency-table';
import { freshKey, idempotencyRecords, keyedCall } from './keyed-requests';

/**
 * Avatar uploads made safe to retry with an `Idempotency-Key` (DESIGN.md 5b), over HTTP through
 * the local gateway: a retry never stores a second avatar, and never refuses a file the first
 * attempt used; the same key with another body, or while its first request runs, is refused.
 */

const bed = useAvatarTestBed();
const gateway = useLocalGateway();
let photo: Buffer;

beforeAll(async () => {
  photo = await quadrantImage(64, 48, 'png');
});

afterEach(async () => {
  await expectRecordsMatchObjects();
});

/** Serves the photo under `path` after `delayMs`; `reached` settles when the service asked for it. */
function slowPhoto(path: string, delayMs: number): { url: string; reached: Promise<void> } {
  let arrived: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const url = bed.source.answer(path, (response: ServerResponse) => {
    arrived();
    setTimeout(() => response.writeHead(200, { 'content-type': 'image/png', 'content-length': photo.byteLength }).end(photo), delayMs);
  });
  return { url, reached };
}

function fetchesOf(path: string): number {
  return bed.source.takeRequests().filter((requested) => requested === path).length;
}

const upload = (avatar: string, crop: { readonly left: number; readonly top: number; readonly size: number } = SMALL_CROP) => ({ avatar, crop });

describe('an avatar upload with an Idempotency-Key', () => {
  it('whose first attempt timed out in the client is retried by the typed client with the same key and answered with the one avatar stored', async () => {
    const user = await createTestUser();
    const slow = slowPhoto('/timed-out.png', 1500);
    const attempts: { key: string | null; outcome: number | string }[] = [];
    const observed: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const key = request.headers.get('Idempotency-Key');
      try {
        const response = await fetch(request);
        attempts.push({ key, outcome: response.status });
        return response;
      } catch (error) {
        attempts.push({ key, outcome: (error as Error).name });
        throw error;
      }
    };
    const api = signIn(gateway.baseUrl, user.token, observed, { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 2000, attemptTimeoutMs: 700 });

    const { data, response } = await api.uploadAvatar(upload(slow.url));

    expect(response.status).toBe(201);
    // The first attempt gave up; a retry met the first request still running (409) or its answer.
    expect(attempts[0]?.outcome).toBe('TimeoutError');
    expect(attempts.at(-1)?.outcome).toBe(201);
    expect(new Set(attempts.map((attempt) => attempt.key)).size).toBe(1);
    expect(attempts[0]?.key).toMatch(/^"[0-9a-f-]{36}"$/);
    const stored = await recordsOf(user.record.id);
    expect(stored.map((record) => record.avatarId)).toEqual([data?.avatar.id]);
    expect(fetchesOf('/timed-out.png')).toBe(1);
  });

  it('replays the answer of a file upload whose source the first request consumed, instead of refusing it', async () => {
    const user = await createTestUser();
    const source = await uploadedSource(user, photo);
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(source));
    const uploadsLeft = (await storedObjectKeys()).filter((objectKey) => objectKey.startsWith(avatarBucket.uploadPrefix));
    const retried = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(source));
    const unkeyed = await keyedCall(gateway, user, 'POST', '/user/current/avatar', undefined, upload(source));

    expect(first.status).toBe(201);
    expect(uploadsLeft).toEqual([]);
    expect({ status: retried.status, body: retried.text, type: retried.headers.get('content-type') }).toEqual({
      status: 201,
      body: first.text,
      type: first.headers.get('content-type'),
    });
    expect(unkeyed.json.code).toBe('upload_not_found');
    expect((await recordsOf(user.record.id)).map((record) => record.avatarId)).toEqual([first.json.avatar.id]);
  });

  it('refuses the same key with another body (422 idempotency_key_reused), storing nothing, and still replays the first', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(bed.photoUrl));
    const other = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(bed.photoUrl, { left: 8, top: 8, size: 16 }));
    const again = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(bed.photoUrl));

    expect(first.status).toBe(201);
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    expect(other.headers.get('content-type')).toBe('application/problem+json');
    expect(again.text).toBe(first.text);
    expect((await recordsOf(user.record.id)).map((record) => record.avatarId)).toEqual([first.json.avatar.id]);
  });

  it('answers the same key while its first request runs with 409 and Retry-After, then with the first answer once it is done', async () => {
    const user = await createTestUser();
    const slow = slowPhoto('/in-progress.png', 1000);
    const key = freshKey();

    const running = keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(slow.url));
    await slow.reached;
    const held = (await idempotencyRecords()).filter((record) => record[IDEMPOTENCY_ATTRIBUTES.status] === 'INPROGRESS');
    const meanwhile = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(slow.url));
    const first = await running;
    const afterwards = await keyedCall(gateway, user, 'POST', '/user/current/avatar', key, upload(slow.url));

    // The key is held until the function's deadline (the gateway's 29 s), no longer.
    expect(held).toHaveLength(1);
    expect(held[0]?.[IDEMPOTENCY_ATTRIBUTES.inProgressExpiry]).toBeGreaterThan(Date.now() + 25_000);
    expect(held[0]?.[IDEMPOTENCY_ATTRIBUTES.inProgressExpiry]).toBeLessThanOrEqual(Date.now() + 29_000);
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.json).toMatchObject({ code: 'idempotency_key_in_use', status: 409 });
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    expect(meanwhile.headers.get('cache-control')).toBe('no-store');
    expect(first.status).toBe(201);
    expect(afterwards.text).toBe(first.text);
    expect(fetchesOf('/in-progress.png')).toBe(1);
    expect((await recordsOf(user.record.id)).map((record) => record.avatarId)).toEqual([first.json.avatar.id]);
  });

  it('replays the 204 of a delete, where the same delete without the key is a 404', async () => {
    const user = await createTestUser();
    const stored = await keyedCall(gateway, user, 'POST', '/user/current/avatar', undefined, upload(bed.photoUrl));
    const path = `/user/current/avatar/${stored.json.avatar.id}`;
    const key = freshKey();

    const removed = await keyedCall(gateway, user, 'DELETE', path, key);
    const retried = await keyedCall(gateway, user, 'DELETE', path, key);
    const unkeyed = await keyedCall(gateway, user, 'DELETE', path, undefined);

    expect([removed.status, retried.status, unkeyed.status]).toEqual([204, 204, 404]);
    expect(retried.text).toBe('');
    expect(await recordsOf(user.record.id)).toEqual([]);
  });

  it("keeps two users' equal keys apart: each gets an avatar of its own, and its own on a retry", async () => {
    const [ada, grace] = [await createTestUser(), await createTestUser()];
    const key = freshKey();

    const adas = await keyedCall(gateway, ada, 'POST', '/user/current/avatar', key, upload(bed.photoUrl));
    const graces = await keyedCall(gateway, grace, 'POST', '/user/current/avatar', key, upload(bed.photoUrl));
    const adasAgain = await keyedCall(gateway, ada, 'POST', '/user/current/avatar', key, upload(bed.photoUrl));

    expect([adas.status, graces.status]).toEqual([201, 201]);
    expect(graces.json.avatar.id).not.toBe(adas.json.avatar.id);
    expect(adasAgain.text).toBe(adas.text);
    expect((await recordsOf(ada.record.id)).map((record) => record.avatarId)).toEqual([adas.json.avatar.id]);
    expect((await recordsOf(grace.record.id)).map((record) => record.avatarId)).toEqual([graces.json.avatar.id]);
  });

  it('without a key, answers as before: every upload stores an avatar, and no key is recorded', async () => {
    const user = await createTestUser();
    const recordsBefore = (await idempotencyRecords()).length;

    const first = await keyedCall(gateway, user, 'POST', '/user/current/avatar', undefined, upload(bed.photoUrl));
    const second = await keyedCall(gateway, user, 'POST', '/user/current/avatar', undefined, upload(bed.photoUrl));

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.json.avatar.id).not.toBe(first.json.avatar.id);
    expect(await recordsOf(user.record.id)).toHaveLength(2);
    expect(await idempotencyRecords()).toHaveLength(recordsBefore);
  });
});
