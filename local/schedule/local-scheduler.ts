import { randomUUID } from 'node:crypto';
import { deployedFunctions } from '../../functions/deployed-functions';
import type { ScheduledFunctionDefinition } from '../../functions/shared/deployment/function-definitions';
import { LOCAL_REGION } from '../local-defaults';
import { lambdaContext } from '../gateway/lambda-context';
import { invokeIsolated } from '../gateway/local-invocation';

/**
 * The scheduled functions of the deployed list, run by `npm start` on their `rate(…)` schedules as
 * an EventBridge rule runs them: the first run one period after the start, then once a period,
 * each with a scheduled event (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-run-lambda-schedule.html).
 * A daily job thus never runs in a short local session; the live media log's every-minute expiry
 * sweep does. Cron schedules are not run locally (`invoke NAME` runs them by hand).
 */

const UNITS_MS = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 } as const;

/** The period of a `rate(N unit)` expression, or undefined for a cron expression. */
export function ratePeriodMs(schedule: ScheduledFunctionDefinition['schedule']): number | undefined {
  const match = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(schedule);
  return match === null ? undefined : Number(match[1]) * UNITS_MS[match[2] as keyof typeof UNITS_MS];
}

/** A scheduled event as EventBridge delivers it to a rule's Lambda target. */
export function scheduledEvent(definition: ScheduledFunctionDefinition, at = new Date()) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: process.env.AWS_REGION ?? LOCAL_REGION,
    resources: [`arn:aws:events:${process.env.AWS_REGION ?? LOCAL_REGION}:123456789012:rule/${definition.name}`],
    detail: {},
  };
}

/** Runs the scheduled functions on their rates until stopped; a run never overlaps the same function's last one. */
export class LocalScheduler {
  private readonly timers: NodeJS.Timeout[] = [];

  public constructor(private readonly definitions: readonly ScheduledFunctionDefinition[] = deployedFunctions.flatMap((fn) => (fn.kind === 'schedule' ? [fn.scheduled] : []))) {}

  /** Start every rate schedule; `onError` hears of a failed run. */
  public start(onError: (name: string, error: unknown) => void): void {
    for (const definition of this.definitions) {
      const period = ratePeriodMs(definition.schedule);
      if (period === undefined) continue;
      let running: Promise<unknown> = Promise.resolve();
      this.timers.push(
        setInterval(() => {
          running = running.then(() => this.run(definition).catch((error: unknown) => onError(definition.name, error)));
        }, period),
      );
    }
  }

  /**
   * Stop the schedules. A run under way is not waited for (the expiry sweep may wait out its
   * minute): each run is safe to stop anywhere and to run again.
   */
  public stop(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private async run(definition: ScheduledFunctionDefinition): Promise<unknown> {
    const module = (await import(`../../${definition.handler}`)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
    return invokeIsolated(module.handler, scheduledEvent(definition), lambdaContext(definition.name, 15 * 60_000));
  }
}
