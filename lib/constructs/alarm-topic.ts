import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { acknowledgeFindings } from '../nag-acknowledgements';

/**
 * The topic the alarms notify, encrypted with a key of its own, with `email` subscribed. Its
 * constructs are made in `scope` (the observability construct), so their ids and the template stay
 * those they always were.
 */
export function createAlarmTopic(scope: Construct, email: string): sns.Topic {
  // CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key; this key lets it.
  const key = new kms.Key(scope, 'AlarmTopicKey', {
    description: 'Encrypts the Frontend API alarm topic',
    enableKeyRotation: true,
  });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  const topic = new sns.Topic(scope, 'AlarmTopic', { masterKey: key, enforceSSL: true });
  const subscription = new sns.Subscription(scope, 'AlarmEmail', {
    topic,
    protocol: sns.SubscriptionProtocol.EMAIL,
    endpoint: email,
  });
  acknowledgeFindings(subscription, {
    'Serverless-SNSRedrivePolicy':
      'An email subscription: SNS retries delivery itself, and an undeliverable alarm mail has no consumer to redrive to; the alarm state stays visible in CloudWatch.',
  });
  return topic;
}
