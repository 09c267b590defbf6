import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { DataGrants } from '../../functions/shared/deployment/data-grants';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { tables } from '../../functions/shared/tables/index';
import { DataTables } from '../../lib/constructs/data-tables';
import { grantFunctionData } from '../../lib/data-grants';
import { InvalidGrantError } from '../../lib/table-grants';

/**
 * The one grant model renders every kind of function's grants, a queue consumer's included (its
 * event source mapping receives, deletes and reads the queue's attributes with the function's
 * role), and refuses grants that IAM could not honour or that name what the stack does not have.
 */

// The WebAssembly template validator costs seconds a synth and checks nothing these tests assert.
process.env.CDK_VALIDATION = 'false';

function rolePolicy(grants: DataGrants): Record<string, unknown>[] {
  const stack = new Stack(new App(), 'GrantTest');
  const data = {
    tables: new DataTables(stack, 'Data', { definitions: tables, deletionProtection: false }),
    avatarBucket: new s3.Bucket(stack, 'Avatars'),
    avatarDefinition: avatarBucket,
    queues: new Map([['MediaLogEvents', new sqs.Queue(stack, 'MediaLogEvents')]]),
  };
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  grantFunctionData(role, grants, data);
  const policies = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'));
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]);
}

describe('the grant model', () => {
  it('gives a queue consumer exactly what its event source mapping needs, on its queue', () => {
    expect(rolePolicy({ queues: { MediaLogEvents: ['ReceiveMessage', 'DeleteMessage', 'GetQueueAttributes'] } })).toEqual([
      { Effect: 'Allow', Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'], Resource: { 'Fn::GetAtt': [expect.stringMatching(/^MediaLogEvents/), 'Arn'] } },
    ]);
  });

  it('renders a grant on the counters as a statement on the MediaLogCounts table', () => {
    expect(rolePolicy({ mediaLogCounts: [{ actions: ['UpdateItem'], partitions: ['COUNT#*'] }] })).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^DataMediaLogCounts/), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['COUNT#*'] } },
      },
    ]);
  });

  it('renders several table accesses as one statement each, with their conditions', () => {
    const statements = rolePolicy({ mediaLog: [{ actions: ['GetItem'], partitions: ['ENTRY#*'] }, { actions: ['Query'], indexes: ['log-by-send', 'user-by-send'] }] });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatchObject({ Action: 'dynamodb:GetItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ENTRY#*'] } } });
    expect(statements[1]?.Resource).toHaveLength(2);
  });

  it.each([
    ['a queue the stack does not have', { queues: { Unknown: ['SendMessage'] } }, /queue "Unknown"/],
    ['an index the table does not have', { users: [{ actions: ['Query'], indexes: ['no-such-index'] }] }, /no-such-index/],
    ['another action than Query on an index', { users: [{ actions: ['GetItem'], indexes: ['by-subject'] }] }, /may only Query/],
    ['an attribute list without the table keys', { users: [{ actions: ['UpdateItem'], attributes: ['version'] }] }, /must hold its keys; pk, sk missing/],
    ['a table access without actions', { users: [{ actions: [] }] }, /names no action/],
  ] as [string, DataGrants, RegExp][])('refuses %s', (_, grants, reason) => {
    const refusal = (() => {
      try {
        rolePolicy(grants);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(InvalidGrantError);
    expect((refusal as Error).message).toMatch(reason);
  });
});
