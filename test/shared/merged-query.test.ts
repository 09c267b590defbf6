import { getDocumentClient } from '../../functions/shared/aws/clients';
import { ForeignPositionError, readMergedPage, type SortedStream } from '../../functions/shared/dynamo/merged-query';

const stream: SortedStream = {
  query: { TableName: 'Users', IndexName: 'all-by-id', KeyConditionExpression: 'scopeAll = :scope', ExpressionAttributeValues: { ':scope': 'USERS' } },
  keyAttributes: ['pk', 'sk', 'scopeAll', 'sortId'],
  partition: { attribute: 'scopeAll', value: 'USERS' },
};
const options = { sortAttribute: 'sortId', descending: false, skip: 0, take: 5 };

describe('resuming a merged page', () => {
  it.each([
    ['another partition', { pk: 'USER#1', sk: 'PROFILE', scopeAll: 'ROLE#root', sortId: '1' }],
    ['missing key attributes', { pk: 'USER#1', scopeAll: 'USERS' }],
    ['extra attributes', { pk: 'USER#1', sk: 'PROFILE', scopeAll: 'USERS', sortId: '1', role: 'root' }],
    ['non-scalar values', { pk: { S: 'x' }, sk: 'PROFILE', scopeAll: 'USERS', sortId: '1' }],
  ])('refuses a position from %s before reading anything', async (_, position) => {
    await expect(readMergedPage(getDocumentClient(), [stream], { ...options, starts: [position as never] })).rejects.toBeInstanceOf(ForeignPositionError);
  });

  it('reads from the start and from a position of its own partition', async () => {
    const first = await readMergedPage(getDocumentClient(), [stream], options);
    expect(first.items).toEqual([]);
    const resumed = await readMergedPage(getDocumentClient(), [stream], { ...options, starts: [{ pk: 'USER#1', sk: 'PROFILE', scopeAll: 'USERS', sortId: '0000000000000001' }] });
    expect(resumed.items).toEqual([]);
  });
});
