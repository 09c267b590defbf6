import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ScheduledFunctionDefinition } from '../../functions/shared/deployment/function-definitions';
import { grantFunctionData } from '../data-grants';
import { lastStopQueue } from '../last-stop-queue';
import type { FunctionGroupProps } from './function-group';
import { ServiceFunction } from './service-function';

/** Properties of {@link BackgroundFunctions}: the scheduled functions. */
export type BackgroundFunctionsProps = FunctionGroupProps<ScheduledFunctionDefinition>;

/** A background function with what runs it. */
export interface BackgroundFunction {
  readonly definition: ScheduledFunctionDefinition;
  readonly handler: ServiceFunction;
  readonly schedule: events.Rule;
}

/**
 * How long EventBridge keeps trying to deliver a scheduled event, and how often, before it parks
 * the event in the dead-letter queue. A run delivered hours late is still worth doing; a day late,
 * the next run is due.
 */
export const SCHEDULE_DELIVERY = { maxEventAge: Duration.hours(6), retryAttempts: 8 } as const;

/**
 * One function per scheduled entry of `functions/deployed-functions.ts`, built like a route's function
 * (bundling, runtime, logs, tracing), granted exactly the operations of its entry, and invoked by
 * an EventBridge rule on its schedule.
 *
 * A run that fails reaches the dead-letter queue whichever way it fails: EventBridge parks an event
 * it could not deliver (the function throttled, missing, not permitted), Lambda one whose every
 * attempt threw or timed out (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-rule-event-delivery.html,
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html). The
 * observability construct alarms on the queue's depth.
 */
export class BackgroundFunctions extends Construct {
  public readonly functions: readonly BackgroundFunction[];
  /** Where failed scheduled runs go, one queue for every scheduled function. */
  public readonly deadLetterQueue: sqs.Queue;

  public constructor(scope: Construct, id: string, props: BackgroundFunctionsProps) {
    super(scope, id);
    this.deadLetterQueue = lastStopQueue(
      this,
      'FailedRuns',
      'This queue is itself the dead-letter queue of the scheduled functions and their EventBridge rules, the last stop of a failed run: nothing consumes it, an operator reads what it holds, and the depth alarm reports every message.',
    );
    this.functions = props.definitions.map((definition) => this.scheduled(definition, props));
  }

  private scheduled(definition: ScheduledFunctionDefinition, props: BackgroundFunctionsProps): BackgroundFunction {
    const handler = new ServiceFunction(this, definition.name, {
      handlerModule: definition.handler,
      description: definition.description,
      image: false,
      invokedBy: 'schedule',
      environment: props.environment,
      logRetentionDays: props.logRetentionDays,
      deadLetterQueue: this.deadLetterQueue,
    });
    grantFunctionData(handler.role, definition.grants, props.data);
    const schedule = new events.Rule(this, `${definition.name}Schedule`, {
      description: `Runs ${definition.description}`,
      schedule: events.Schedule.expression(definition.schedule),
      targets: [new targets.LambdaFunction(handler.function, { deadLetterQueue: this.deadLetterQueue, ...SCHEDULE_DELIVERY })],
    });
    return { definition, handler, schedule };
  }
}
