import { getDocumentClient } from '../../functions/shared/aws/clients';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { httpAnswer, onTheWire } from '../harness/iam-answers';
import { invoke } from '../harness/invoke';
import { storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * DynamoDB throttles a BatchGetItem by answering it with its keys unprocessed
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html: "If
 * DynamoDB returns any unprocessed items, you should retry the batch operation on those items …
 * with exponential backoff"). The listing retries them; when the throttling does not let up, the
 * page is a 503 with `Retry-After` (a dependency that cannot serve now, DESIGN.md 5), not a 500.
 * DynamoDB Local never throttles, so the answer is injected on the wire: the one mock of this file.
 */

let user: TestUser;

beforeAll(async () => {
  user = await createTestUser({ role: 'user' });
  await storeEntries(sampleMediaLogEntries(30, { userIds: [user.record.id], start: new Date('2026-08-01T00:00:00Z'), spanMs: 86_400_000, seed: 61 }));
}, 120_000);

/** Answers every BatchGetItem as DynamoDB does under throttling: nothing read, every key unprocessed. */
function throttleBatchGets(): { readonly calls: () => number; readonly stop: () => void } {
  let calls = 0;
  const stop = onTheWire(getDocumentClient(), 'batchGetThrottled', async (next, args: { input: { RequestItems?: Record<string, unknown> } }, commandName) => {
    if (commandName !== 'BatchGetItemCommand') return next(args);
    calls += 1;
    const requested = args.input.RequestItems ?? {};
    const body = { Responses: Object.fromEntries(Object.keys(requested).map((table) => [table, []])), UnprocessedKeys: requested };
    return httpAnswer(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'THROTTLED00000000000000000000000000000000000000000000' }, JSON.stringify(body));
  });
  return { calls: () => calls, stop };
}

describe('a page whose entries DynamoDB keeps throttling', () => {
  it('retries the unprocessed keys with backoff, then answers 503 with Retry-After', async () => {
    const throttled = throttleBatchGets();
    try {
      const response = await invoke('listMediaLog', { token: user.token });

      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      // Eight rounds of the page's first run of keys: the first call and seven retries.
      expect(throttled.calls()).toBe(8);
    } finally {
      throttled.stop();
    }
  }, 60_000);

  it('answers the same page once the throttling lets up', async () => {
    const response = await invoke('listMediaLog', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body.log).toHaveLength(10);
  });
});
