import { deployedFunctions } from '../../functions/deployed-functions';
import type { StreamConsumerDefinition } from '../../functions/shared/deployment/function-definitions';
import { lambdaContext } from '../gateway/lambda-context';
import { invokeIsolated } from '../gateway/local-invocation';
import type { CheckpointStore } from './checkpoints';
import { LocalStreamConsumer, POLL_INTERVAL_MS } from './stream-consumer';

/** The stream consumers of the deployed list. */
export function streamConsumerDefinitions(): StreamConsumerDefinition[] {
  return deployedFunctions.flatMap((fn) => (fn.kind === 'stream' ? [fn.stream] : []));
}

/** A consumer's batch, run as one invocation of its handler beside whatever else the process serves. */
function invocationOf(definition: StreamConsumerDefinition) {
  const handler = import(`../../${definition.handler}`).then((module: { handler: (event: unknown, context: unknown) => Promise<unknown> }) => module.handler);
  return async (event: unknown) => invokeIsolated(await handler, event, lambdaContext(definition.name, definition.timeoutSeconds * 1000));
}

/**
 * Every stream consumer of the deployed list, each polling its table's stream with its own
 * checkpoints and its own loop, as each has its own event source mapping in AWS: a consumer that
 * holds a batch (the notifier waiting out its coalescing) never holds up another.
 */
export class LocalStreamConsumers {
  public readonly consumers: readonly LocalStreamConsumer[];

  public constructor(checkpointsOf: (consumer: string) => CheckpointStore, definitions: readonly StreamConsumerDefinition[] = streamConsumerDefinitions()) {
    this.consumers = definitions.map((definition) => new LocalStreamConsumer(definition, checkpointsOf(definition.name), invocationOf(definition)));
  }

  /** Poll every stream; `onError` hears of a failed pass with the consumer's name. */
  public start(onError: (consumer: string, error: unknown) => void, intervalMs = POLL_INTERVAL_MS): void {
    for (const consumer of this.consumers) consumer.start((error) => onError(consumer.definition.name, error), intervalMs);
  }

  /** Stop every consumer once its pass under way is done. */
  public async stop(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
  }
}
