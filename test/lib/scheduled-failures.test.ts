import { deployedFunctions } from '../../functions/deployed-functions';
import { ALARM_THRESHOLDS } from '../../lib/constructs/observability';
import { SCHEDULE_DELIVERY } from '../../lib/constructs/background-functions';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * A scheduled run that fails never vanishes (issue 16, item 5): an event EventBridge cannot deliver
 * and an invocation whose every attempt failed both land in the dead-letter queue, and an alarm
 * reports the first message there.
 */

const { stack, template } = synthesizeStack({ alarmEmail: 'ops@example.com' });
const resources = template.toJSON().Resources as Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const queueId = logicalIdAt(stack, ['Background', 'FailedRuns']);
const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
const scheduled = deployedFunctions.flatMap((fn) => (fn.kind === 'schedule' ? [fn.scheduled] : []));

describe.each(scheduled.map((definition) => [definition.name]))('the scheduled function %s', (name) => {
  const functionId = logicalIdAt(stack, ['Background', name, 'Function']);
  const ruleId = logicalIdAt(stack, ['Background', `${name}Schedule`]);

  it('parks an event EventBridge could not deliver in the dead-letter queue, after retrying for hours', () => {
    const targets = resources[ruleId]?.Properties.Targets as Record<string, unknown>[];
    expect(targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
        DeadLetterConfig: { Arn: queueArn },
        RetryPolicy: { MaximumEventAgeInSeconds: SCHEDULE_DELIVERY.maxEventAge.toSeconds(), MaximumRetryAttempts: SCHEDULE_DELIVERY.retryAttempts },
      }),
    ]);
  });

  it('parks a run whose every attempt failed in the same queue', () => {
    expect(resources[functionId]?.Properties.DeadLetterConfig).toEqual({ TargetArn: queueArn });
  });

  it('may send to that queue and to no other', () => {
    const roleId = logicalIdAt(stack, ['Background', name, 'Role']);
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const sqs = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('sqs:')));
    expect(sqs).toEqual([expect.objectContaining({ Action: 'sqs:SendMessage', Resource: queueArn })]);
  });
});

describe('the dead-letter queue of scheduled runs', () => {
  it('is encrypted, refuses plain HTTP and keeps messages 14 days', () => {
    expect(resources[queueId]?.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, policy]) => JSON.stringify(policy.Properties.Queues).includes(`"${queueId}"`));
    const statements = policies.flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]);
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  it('lets EventBridge send only for the schedule rules', () => {
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, policy]) => JSON.stringify(policy.Properties.Queues).includes(`"${queueId}"`));
    const allows = policies.flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]).filter((statement) => statement.Effect === 'Allow');
    const ruleArns = scheduled.map((definition) => ({ 'Fn::GetAtt': [logicalIdAt(stack, ['Background', `${definition.name}Schedule`]), 'Arn'] }));
    expect(allows.map((statement) => [statement.Principal, statement.Action, statement.Condition])).toEqual(
      ruleArns.map((arn) => [{ Service: 'events.amazonaws.com' }, 'sqs:SendMessage', { ArnEquals: { 'aws:SourceArn': arn } }]),
    );
  });

  it('raises an alarm, mailed to the operators, on its first message', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, alarm]) => alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(alarm.Properties.Dimensions).includes(`"${queueId}"`),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Threshold: ALARM_THRESHOLDS.deadLetters,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(ALARM_THRESHOLDS.deadLetters).toBe(1);
    expect(alarms[0]?.[1].Properties.AlarmActions).toEqual([{ Ref: logicalIdAt(stack, ['Observability', 'AlarmTopic']) }]);
  });
});
