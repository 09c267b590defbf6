import { DELTA_KEY_PREFIX, ENTRY_KEY_PREFIX } from '../../functions/media-log/model/keys';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { deployedFunctions } from '../../functions/deployed-functions';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { tables } from '../../functions/shared/tables/index';
import { STREAM_READ_ACTIONS } from '../../lib/constructs/stream-consumers';
import { actionsOf, statementsOfRole } from './grant-coverage/policy-simulator';
import { logicalIdAt, synthesizeStack, tableLogicalId, type Resources } from './stack-fixture';

/**
 * The counter fold in the stack (DESIGN.md section 7b, round five): the media log table's stream,
 * the event source mapping that reads it, the first stage's role, its failure queue, their alarms
 * and output; the deltas table's stream and the second stage that reads it.
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const mentioning = (id: string) => ([, resource]: [string, Resources[string]]) => JSON.stringify(resource.Properties).includes(`"${id}"`);

const tableId = tableLogicalId(stack, mediaLogTable);
const countsTableId = tableLogicalId(stack, mediaLogCountsTable);
const deltasTableId = tableLogicalId(stack, mediaLogDeltasTable);
const functionId = logicalIdAt(stack, ['Streams', 'foldMediaLogCounts', 'Function']);
const roleId = logicalIdAt(stack, ['Streams', 'foldMediaLogCounts', 'Role']);
const failuresId = logicalIdAt(stack, ['Streams', 'MediaLogFoldFailures']);
const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
const failuresArn = { 'Fn::GetAtt': [failuresId, 'Arn'] };

const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(mentioning(functionId));
const mapping = mappings[0]?.[1].Properties ?? {};

describe('the stream consumers', () => {
  it('are the deployed functions of kind stream, the two stages of the counter fold among them', () => {
    expect(deployedFunctions.filter((fn) => fn.kind === 'stream').map((fn) => fn.name)).toEqual(['foldMediaLogCounts', 'applyMediaLogDeltas', 'notifyMediaLogWatchers', 'reviseLiveAccess', 'rekeyMovedUsers']);
    expect(resources[functionId]?.Type).toBe('AWS::Lambda::Function');
  });

  it('refuse a table without a stream', () => {
    const streamless = tables.map(({ stream: _stream, ...definition }) => definition);
    expect(() => synthesizeStack({}, { tables: streamless })).toThrow(/foldMediaLogCounts consumes the stream of table MediaLog, which has none/);
  });
});

describe('the MediaLog table', () => {
  it('streams the old and new image of every change', () => {
    expect(resources[tableId]?.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });
});

describe('the foldMediaLogCounts mapping', () => {
  it('is the one mapping of the function, on the table stream, from the oldest record kept', () => {
    expect(mappings).toHaveLength(1);
    expect(mapping).toMatchObject({ EventSourceArn: streamArn, StartingPosition: 'TRIM_HORIZON' });
  });

  it('batches, waits and windows as the definition says, one batch per shard at a time', () => {
    expect(mapping).toMatchObject({
      BatchSize: foldMediaLogCountsFunction.batchSize,
      MaximumBatchingWindowInSeconds: foldMediaLogCountsFunction.maxBatchingWindowSeconds,
      TumblingWindowInSeconds: foldMediaLogCountsFunction.tumblingWindowSeconds,
      ParallelizationFactor: 1,
    });
    expect(mapping.FunctionResponseTypes).toBeUndefined();
  });

  it('bisects a failing batch and retries it until its records are an hour old, then reports it to the failure queue', () => {
    expect(mapping).toMatchObject({
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: -1,
      MaximumRecordAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: failuresArn } },
    });
  });

  it('lets through only records of entry items', () => {
    const patterns = (mapping.FilterCriteria?.Filters as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern));
    expect(patterns).toEqual([{ dynamodb: { Keys: { pk: { S: [{ prefix: ENTRY_KEY_PREFIX }] } } } }]);
  });
});

describe('the foldMediaLogCounts function', () => {
  it('runs for at most its definition timeout', () => {
    expect(resources[functionId]?.Properties.Timeout).toBe(foldMediaLogCountsFunction.timeoutSeconds);
  });
});

describe('the foldMediaLogCounts role', () => {
  const statements = statementsOfRole(resources, roleId);
  const resourcesOf = (action: string) => statements.filter((statement) => actionsOf(statement).includes(action)).map((statement) => statement.Resource);

  it('may only put delta items and update its watermark items in the deltas table, in a transaction, never a counter', () => {
    const writes = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:') && !(STREAM_READ_ACTIONS as readonly string[]).includes(action)));
    const inTransaction = { 'ForAnyValue:StringEquals': { 'dynamodb:EnclosingOperation': ['TransactWriteItems'] } };
    expect(writes).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: { 'Fn::GetAtt': [deltasTableId, 'Arn'] }, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['DELTA#*'] }, ...inTransaction } },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [deltasTableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FOLDED#*'] }, ...inTransaction, StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_OLD'] } },
      },
    ]);
  });

  it.each([...STREAM_READ_ACTIONS])('has %s on the media log stream alone', (action) => {
    expect(resourcesOf(action)).toEqual([streamArn]);
  });

  it('may send to its failure queue, and do nothing else with any queue', () => {
    const queueActions = statements.flatMap(actionsOf).filter((action) => action.startsWith('sqs:'));
    expect(queueActions).toEqual(['sqs:SendMessage']);
    expect(resourcesOf('sqs:SendMessage')).toEqual([failuresArn]);
  });

  it('has nothing else beside its log group', () => {
    const others = statements.flatMap(actionsOf).filter((action) => !/^(dynamodb|sqs):/.test(action));
    expect(others.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
  });
});

describe('the second stage, applyMediaLogDeltas', () => {
  const stageTwoId = logicalIdAt(stack, ['Streams', 'applyMediaLogDeltas', 'Function']);
  const stageTwoRole = logicalIdAt(stack, ['Streams', 'applyMediaLogDeltas', 'Role']);
  const stageTwoMappings = ofType('AWS::Lambda::EventSourceMapping').filter(mentioning(stageTwoId));
  const deltasStream = { 'Fn::GetAtt': [deltasTableId, 'StreamArn'] };

  it('reads the new images of the deltas table stream, from the oldest record kept, one batch per shard at a time', () => {
    expect(resources[deltasTableId]?.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(stageTwoMappings).toHaveLength(1);
    expect(stageTwoMappings[0]?.[1].Properties).toMatchObject({ EventSourceArn: deltasStream, StartingPosition: 'TRIM_HORIZON', ParallelizationFactor: 1, BisectBatchOnFunctionError: true, MaximumRecordAgeInSeconds: 3600 });
  });

  it('lets through only new delta items: not its own deletes, nor TTL\'s, nor the first stage\'s watermarks', () => {
    const patterns = (stageTwoMappings[0]?.[1].Properties.FilterCriteria?.Filters as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern));
    expect(patterns).toEqual([{ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: DELTA_KEY_PREFIX }] } } } }]);
  });

  it('may only update counter items, asking back at most the whole item, and delete delta items', () => {
    const statements = statementsOfRole(resources, stageTwoRole);
    const writes = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:') && !(STREAM_READ_ACTIONS as readonly string[]).includes(action)));
    expect(writes).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [countsTableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['COUNT#*'] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW', 'ALL_OLD'] } },
      },
      { Effect: 'Allow', Action: 'dynamodb:BatchWriteItem', Resource: { 'Fn::GetAtt': [deltasTableId, 'Arn'] }, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['DELTA#*'] } } },
    ]);
    for (const action of STREAM_READ_ACTIONS) expect(statements.filter((statement) => actionsOf(statement).includes(action)).map((statement) => statement.Resource)).toEqual([deltasStream]);
  });
});

describe('the MediaLogFoldFailures queue', () => {
  it('is encrypted, keeps messages 14 days and refuses requests not sent over TLS', () => {
    expect(resources[failuresId]?.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const statements = ofType('AWS::SQS::QueuePolicy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Queues).includes(`"${failuresId}"`))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]);
    expect(statements).toEqual([expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]);
  });

  it('is named in the outputs by its URL', () => {
    expect(outputs.MediaLogFoldFailuresQueueUrl?.Value).toEqual({ Ref: failuresId });
  });
});

describe('the fold alarms', () => {
  const alarms = ofType('AWS::CloudWatch::Alarm');

  it('fire when the fold trails its stream by more than a minute for five minutes running', () => {
    const lag = alarms.filter(mentioning(functionId)).filter(([, alarm]) => alarm.Properties.MetricName === 'IteratorAge');
    expect(lag).toHaveLength(1);
    expect(lag[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('fire on the first message in the failure queue', () => {
    const depth = alarms.filter(mentioning(failuresId));
    expect(depth).toHaveLength(1);
    expect(depth[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });
});
