import { deployedFunctions } from '../../functions/deployed-functions';
import { ingestMediaLogFunction } from '../../functions/media-log/feed/queue-functions';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * The media pipeline feed in the stack (DESIGN.md section 7a): the queue, its dead letters and
 * their alarm, the consumer and its event source mapping, the outputs and the producer policy.
 */

const PRODUCER = '210987654321';
const { stack, template } = synthesizeStack({ feedProducerAccounts: PRODUCER });
const resources = template.toJSON().Resources as Resources;
const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

const queueId = logicalIdAt(stack, ['Feed', 'MediaLogEvents']);
const deadLettersId = logicalIdAt(stack, ['Feed', 'MediaLogEventsDeadLetters']);
const functionId = logicalIdAt(stack, ['Feed', 'ingestMediaLog', 'Function']);
const roleId = logicalIdAt(stack, ['Feed', 'ingestMediaLog', 'Role']);

/** The statements of the queue policies attached to `queueLogicalId`. */
function queuePolicyStatements(queueLogicalId: string): Record<string, any>[] {
  return ofType('AWS::SQS::QueuePolicy')
    .filter(([, policy]) => JSON.stringify(policy.Properties.Queues).includes(`"${queueLogicalId}"`))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]);
}

/** Whether `arn` is the ARN of a queue of the template (`Fn::GetAtt` of an `AWS::SQS::Queue`). */
function isQueueArn(arn: unknown): boolean {
  const target = (arn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
  return target !== undefined && resources[target]?.Type === 'AWS::SQS::Queue';
}

describe('the queue consumers', () => {
  it('are the deployed functions of kind queue, the feed consumer among them', () => {
    expect(deployedFunctions.filter((fn) => fn.kind === 'queue').map((fn) => fn.name)).toEqual(['ingestMediaLog']);
    expect(resources[functionId]?.Type).toBe('AWS::Lambda::Function');
  });
});

describe('every queue consumer', () => {
  // A burst on any queue must not take the account's concurrency from the authorizer and the routes.
  it('is fed by a mapping that caps its concurrency (2 to 1,000 invocations)', () => {
    const sqsMappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) => isQueueArn(mapping.Properties.EventSourceArn));
    expect(sqsMappings.length).toBe(deployedFunctions.filter((fn) => fn.kind === 'queue').length);
    for (const [, mapping] of sqsMappings) {
      const cap: unknown = mapping.Properties.ScalingConfig?.MaximumConcurrency;
      expect(cap).toEqual(expect.any(Number));
      expect(cap).toBeGreaterThanOrEqual(2);
      expect(cap).toBeLessThanOrEqual(1000);
    }
  });
});

describe('the MediaLogEvents queue', () => {
  it('is encrypted, keeps messages 14 days and hides a received batch six times the consumer timeout', () => {
    const Properties: Record<string, unknown> = resources[queueId]?.Properties ?? {};
    expect(Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400, VisibilityTimeout: 6 * ingestMediaLogFunction.timeoutSeconds });
    expect(Properties.FifoQueue).toBeUndefined();
  });

  it('moves a message to its dead-letter queue after five receives', () => {
    expect(resources[queueId]?.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] }, maxReceiveCount: 5 });
    expect(resources[deadLettersId]?.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
  });

  it.each([
    ['queue', queueId],
    ['dead-letter queue', deadLettersId],
  ])('the %s refuses every request not sent over TLS', (_name, id) => {
    const denial = queuePolicyStatements(id).find((statement) => statement.Effect === 'Deny');
    expect(denial).toMatchObject({ Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Principal: { AWS: '*' } });
  });

  it('lets the producer account send, and nothing else', () => {
    const allowed = queuePolicyStatements(queueId).filter((statement) => statement.Effect === 'Allow');
    expect(allowed).toHaveLength(1);
    expect(allowed[0]).toMatchObject({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    expect(JSON.stringify(allowed[0]?.Principal)).toContain(`:iam::${PRODUCER}:root`);
  });

  it('has no producer statement when no producer account is configured', () => {
    const plain = synthesizeStack();
    const id = logicalIdAt(plain.stack, ['Feed', 'MediaLogEvents']);
    const policies = Object.values(plain.template.toJSON().Resources as Resources).filter((resource) => resource.Type === 'AWS::SQS::QueuePolicy');
    const statements = policies.filter((policy) => JSON.stringify(policy.Properties.Queues).includes(`"${id}"`)).flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Effect: string }[]);
    expect(statements.filter((statement) => statement.Effect === 'Allow')).toEqual([]);
  });

  it('has an alarm on the visible messages of its dead-letter queue', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, alarm]) => JSON.stringify(alarm.Properties.Dimensions ?? []).includes(`"${deadLettersId}"`));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('is named in the outputs, URL and ARN', () => {
    expect(outputs.MediaLogEventsQueueUrl?.Value).toEqual({ Ref: queueId });
    expect(outputs.MediaLogEventsQueueArn?.Value).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
  });
});

describe('the ingestMediaLog consumer', () => {
  it('reads the queue through a mapping that reports partial batch failures, with the batch size and window of its definition', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) => JSON.stringify(mapping.Properties.FunctionName).includes(`"${functionId}"`));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.[1].Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 2,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('runs at most its definition\'s number of invocations at once', () => {
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) => JSON.stringify(candidate.Properties.FunctionName).includes(`"${functionId}"`));
    expect(mapping?.[1].Properties.ScalingConfig).toEqual({ MaximumConcurrency: ingestMediaLogFunction.maxConcurrency });
  });

  it('runs for at most its definition timeout', () => {
    expect(resources[functionId]?.Properties.Timeout).toBe(ingestMediaLogFunction.timeoutSeconds);
  });

  it('may receive and delete the messages of its queue, and touch no other queue', () => {
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const sqsStatements = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('sqs:')));
    expect(sqsStatements.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(['sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage']);
    for (const statement of sqsStatements) expect(statement.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
  });
});
