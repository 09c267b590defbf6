import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NO_READS, READ_COMMANDS, readsOf, sumReads, type ReadTally } from '../../functions/shared/observability/read-meter';

/**
 * A read meter for the benchmarks and the tests (run locally, never deployed): everything a client
 * reads while the meter is attached, by the product's own rules
 * (functions/shared/observability/read-meter.ts).
 */

/** A meter on a client: what it read while attached. */
export interface ReadMeter {
  tally(): ReadTally;
  reset(): void;
  detach(): void;
}

let meters = 0;

/**
 * Measure everything `client` reads while attached, asking DynamoDB for the read units it consumed
 * (`ReturnConsumedCapacity`): the production code is measured as it runs, without a statistics
 * parameter threaded through it. Attach it around one piece of work at a time.
 */
export function attachReadMeter(client: DynamoDBDocumentClient): ReadMeter {
  const name = `readMeter${(meters += 1)}`;
  let tally: ReadTally = NO_READS;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const command = context.commandName ?? '';
      if (READ_COMMANDS.has(command) && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      tally = sumReads(tally, readsOf(command, input, result.output as Record<string, unknown>));
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    tally: () => tally,
    reset: () => {
      tally = NO_READS;
    },
    detach: () => void client.middlewareStack.remove(name),
  };
}
