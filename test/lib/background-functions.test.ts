import { deployedFunctions } from '../../functions/deployed-functions';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { usersTable } from '../../functions/shared/tables/index';
import { CURSOR_SECRET_ENV } from '../../lib/constructs/cursor-signing-key';
import { logicalIdAt, synthesizeStack, tableLogicalId } from './stack-fixture';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

type Resource = { Type: string; Properties: Record<string, any> };

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string): Resource[] => Object.values(resources).filter((resource) => resource.Type === type);

const scheduledFunctions = deployedFunctions.flatMap((fn) => (fn.kind === 'schedule' ? [fn.scheduled] : []));
const reconciler = scheduledFunctions.find((definition) => definition.name === 'reconcileAvatarObjects');
const functionId = logicalIdAt(stack, ['Background', 'reconcileAvatarObjects', 'Function']);
const roleId = logicalIdAt(stack, ['Background', 'reconcileAvatarObjects', 'Role']);
const bucketId = logicalIdAt(stack, ['AvatarStorage', 'Avatars']);
const usersTableId = tableLogicalId(stack, usersTable);

const statements: Statement[] = ofType('AWS::IAM::Policy')
  .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
  .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);

/** Each statement's actions, one entry per action, with the statement's resources and condition. */
const grants = statements.flatMap((statement) =>
  [statement.Action].flat().map((action) => ({ action, resources: [statement.Resource].flat(), condition: statement.Condition })),
);
const grantOf = (action: string) => grants.filter((grant) => grant.action === action);

describe('the scheduled functions', () => {
  it('lists the avatar reconciler, running the reconcile handler daily', () => {
    expect(reconciler).toMatchObject({ handler: 'functions/avatars/reconcile-avatar-objects.ts', schedule: 'rate(1 day)' });
  });

  it('deploys one function per entry, besides the routes and the authorizer', () => {
    for (const definition of scheduledFunctions) {
      expect(resources[logicalIdAt(stack, ['Background', definition.name, 'Function'])]?.Type).toBe('AWS::Lambda::Function');
    }
  });
});

describe('the avatar reconciler', () => {
  it('is invoked by an enabled EventBridge rule once a day', () => {
    const rules = ofType('AWS::Events::Rule').filter((rule) => JSON.stringify(rule.Properties.Targets).includes(`"${functionId}"`));
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({ ScheduleExpression: 'rate(1 day)', State: 'ENABLED' });
  });

  it('may be invoked by EventBridge, through that rule only', () => {
    const ruleId = logicalIdAt(stack, ['Background', 'reconcileAvatarObjectsSchedule']);
    const permissions = ofType('AWS::Lambda::Permission').filter((permission) => JSON.stringify(permission.Properties.FunctionName).includes(`"${functionId}"`));
    expect(permissions.map((permission) => permission.Properties)).toEqual([
      { Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] }, Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] } },
    ]);
  });

  it('has exactly: list the avatar prefix, delete avatar objects, batch-get users, logs, and its dead-letter queue', () => {
    expect(grants.map((grant) => grant.action).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      's3:DeleteObject',
      's3:ListBucket',
      'sqs:SendMessage',
    ]);
    expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
  });

  it('lists the bucket only under the avatar prefix', () => {
    expect(grantOf('s3:ListBucket')).toEqual([
      {
        action: 's3:ListBucket',
        resources: [{ 'Fn::GetAtt': [bucketId, 'Arn'] }],
        condition: { StringLike: { 's3:prefix': `${avatarBucket.objectPrefix}*` } },
      },
    ]);
  });

  it('deletes objects under the avatar prefix only', () => {
    expect(grantOf('s3:DeleteObject')).toEqual([
      {
        action: 's3:DeleteObject',
        resources: [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${avatarBucket.objectPrefix}*`]] }],
        condition: undefined,
      },
    ]);
  });

  it('batch-gets from the users table itself, no index and no other table: user partitions, their keys and object key only', () => {
    expect(grantOf('dynamodb:BatchGetItem')).toEqual([
      {
        action: 'dynamodb:BatchGetItem',
        resources: [{ 'Fn::GetAtt': [usersTableId, 'Arn'] }],
        condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'objectKey'] },
        },
      },
    ]);
  });

  it('knows the users table and the bucket by name, and gets no cursor key', () => {
    const variables = resources[functionId]?.Properties.Environment.Variables as Record<string, unknown>;
    expect(variables).toMatchObject({ [usersTable.nameEnv]: { Ref: usersTableId }, [avatarBucket.nameEnv]: { Ref: bucketId } });
    expect(variables[CURSOR_SECRET_ENV]).toBeUndefined();
  });

  it('has an error alarm like every other function', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(
      (alarm) => alarm.Properties.MetricName === 'Errors' && JSON.stringify(alarm.Properties.Dimensions).includes(`"${functionId}"`),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });
});
