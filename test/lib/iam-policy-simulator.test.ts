import { authorizationRequests, EVERY_ATTRIBUTE, type DataNames } from './grant-coverage/authorization-requests';
import { allows, type RoleStatement } from './grant-coverage/policy-simulator';
import type { RecordedCall } from './grant-coverage/sdk-recorder';

/**
 * The simulator behind function-grants-coverage.test.ts refuses what IAM refuses: without that,
 * "every request is allowed" would prove nothing. Statements here are written as the template
 * writes them; requests come from recorded calls as the SDK sends them.
 */

const names: DataNames = { tables: new Map([['Users', { logicalId: 'UsersTable', partitionKey: 'pk' }]]), bucket: { name: 'avatars', logicalId: 'Bucket' } };
const table = { 'Fn::GetAtt': ['UsersTable', 'Arn'] };

function request(operation: string, input: Record<string, unknown>, service: RecordedCall['service'] = 'dynamodb') {
  const [first] = authorizationRequests({ functionName: 'f', service, operation, input }, names);
  if (!first) throw new Error('no request');
  return first;
}

const profileUpdate = request('UpdateItem', {
  TableName: 'Users',
  Key: { pk: 'USER#7', sk: 'PROFILE' },
  UpdateExpression: 'SET #current = :c ADD #version :one',
  ConditionExpression: '#version = :v',
  ExpressionAttributeNames: { '#current': 'currentAvatarId', '#version': 'version' },
});

const avatarUpdates: RoleStatement = {
  Effect: 'Allow',
  Action: 'dynamodb:UpdateItem',
  Resource: table,
  Condition: {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] },
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'currentAvatarId', 'version'] },
    'StringEqualsIfExists': { 'dynamodb:ReturnValues': ['NONE'] },
  },
};

describe('the IAM policy simulator', () => {
  it('allows a request within every condition', () => {
    expect(allows(avatarUpdates, profileUpdate)).toBe(true);
  });

  it('refuses another action, another table or an index of the table', () => {
    expect(allows({ ...avatarUpdates, Action: 'dynamodb:PutItem' }, profileUpdate)).toBe(false);
    expect(allows({ ...avatarUpdates, Resource: { 'Fn::GetAtt': ['OtherTable', 'Arn'] } }, profileUpdate)).toBe(false);
    const onIndex = request('Query', { TableName: 'Users', IndexName: 'by-subject', KeyConditionExpression: 'subject = :s', ExpressionAttributeValues: { ':s': 'x' } });
    expect(allows({ Effect: 'Allow', Action: 'dynamodb:Query', Resource: table }, onIndex)).toBe(false);
  });

  it('refuses a partition outside LeadingKeys', () => {
    expect(allows(avatarUpdates, { ...profileUpdate, context: { ...profileUpdate.context, 'dynamodb:LeadingKeys': ['SUBJECT#x'] } })).toBe(false);
  });

  it('refuses an attribute outside the list, and a request returning every attribute', () => {
    const role = request('UpdateItem', { TableName: 'Users', Key: { pk: 'USER#7', sk: 'PROFILE' }, UpdateExpression: 'SET #r = :r', ExpressionAttributeNames: { '#r': 'role' } });
    const allNew = request('UpdateItem', { TableName: 'Users', Key: { pk: 'USER#7', sk: 'PROFILE' }, UpdateExpression: 'ADD version :one', ReturnValues: 'ALL_NEW' });
    expect(allows(avatarUpdates, role)).toBe(false);
    expect(allNew.context['dynamodb:Attributes']).toContain(EVERY_ATTRIBUTE);
    expect(allows(avatarUpdates, allNew)).toBe(false);
  });

  it('refuses outside a transaction what a statement allows only inside one', () => {
    const inTransaction: RoleStatement = { Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: table, Condition: { 'ForAnyValue:StringEquals': { 'dynamodb:EnclosingOperation': ['TransactWriteItems'] } } };
    const item = { TableName: 'Users', Item: { pk: 'USER#7', sk: 'AVATAR#a' } };
    expect(allows(inTransaction, request('PutItem', item))).toBe(false);
    expect(allows(inTransaction, request('TransactWriteItems', { TransactItems: [{ Put: item }] }))).toBe(true);
  });

  it('refuses an object outside the prefix and a listing of the whole bucket', () => {
    const objects: RoleStatement = { Effect: 'Allow', Action: 's3:PutObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Bucket', 'Arn'] }, '/avatars/*']] } };
    const listing: RoleStatement = { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': ['Bucket', 'Arn'] }, Condition: { StringLike: { 's3:prefix': 'avatars/*' } } };
    expect(allows(objects, request('PutObject', { Bucket: 'avatars', Key: 'avatars/1/a.webp' }, 's3'))).toBe(true);
    expect(allows(objects, request('PutObject', { Bucket: 'avatars', Key: 'exports/users.csv' }, 's3'))).toBe(false);
    expect(allows(listing, request('ListObjectsV2', { Bucket: 'avatars', Prefix: 'avatars/' }, 's3'))).toBe(true);
    expect(allows(listing, request('ListObjectsV2', { Bucket: 'avatars' }, 's3'))).toBe(false);
  });

  it('fails loudly on a condition operator it does not know', () => {
    expect(() => allows({ ...avatarUpdates, Condition: { NumericLessThan: { 'aws:EpochTime': '1' } } }, profileUpdate)).toThrow(/does not know/);
  });
});
