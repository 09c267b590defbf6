import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { ScheduledFunctionDefinition } from '../../functions/shared/deployment/function-definitions';
import { grantBackgroundData, type GrantableData } from '../data-grants';
import { acknowledgeFindings } from '../nag-acknowledgements';
import { ServiceFunction } from './service-function';

/** Properties of {@link BackgroundFunctions}. */
export interface BackgroundFunctionsProps {
  /** The background function table. */
  readonly definitions: readonly ScheduledFunctionDefinition[];
  /** Environment every function shares (table and bucket names, logging, metrics). */
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  readonly data: GrantableData;
}

/** A background function with what runs it. */
export interface BackgroundFunction {
  readonly definition: ScheduledFunctionDefinition;
  readonly handler: ServiceFunction;
  readonly schedule: events.Rule;
}

/**
 * One function per scheduled entry of `functions/deployed-functions.ts`, built like a route's function
 * (bundling, runtime, logs, tracing), granted exactly the operations of its entry, and invoked by
 * an EventBridge rule on its schedule.
 */
export class BackgroundFunctions extends Construct {
  public readonly functions: readonly BackgroundFunction[];

  public constructor(scope: Construct, id: string, props: BackgroundFunctionsProps) {
    super(scope, id);
    this.functions = props.definitions.map((definition) => {
      const handler = new ServiceFunction(this, definition.name, {
        handlerModule: definition.handler,
        description: definition.description,
        image: false,
        invokedBy: 'schedule',
        environment: props.environment,
        logRetentionDays: props.logRetentionDays,
      });
      grantBackgroundData(handler.role, definition.grants, props.data);
      const schedule = new events.Rule(this, `${definition.name}Schedule`, {
        description: `Runs ${definition.description}`,
        schedule: events.Schedule.expression(definition.schedule),
        targets: [new targets.LambdaFunction(handler.function)],
      });
      acknowledgeFindings(schedule, {
        'Serverless-EventBusDLQ':
          'A schedule event carries no data: an invocation EventBridge could not deliver is made good by the next scheduled run, which does the whole work again.',
      });
      return { definition, handler, schedule };
    });
  }
}
