import { parseArgs } from 'node:util';
import { reportCliError, UsageError, usageErrorOf } from '../local/cli/cli-errors';
import { foldWrittenChanges, withData } from '../local/cli/data-access';
import { generateStreamEvent, withShardOfLocalStream } from '../local/invoke/stream-event';
import { authorizerContextFor } from '../local/invoke/authorizer-context';
import { generateEvent, requestFromLine } from '../local/invoke/generate-event';
import { checkEventFor, functionNamed, listFunctions, readEvent, runFunction } from '../local/invoke/run-function';
import { consumedQueues, generateSqsEvent } from '../local/invoke/sqs-event';
import { generateWebSocketEvent, isWebSocketLine } from '../local/invoke/websocket-event';

const USAGE = `Usage: npm run --silent invoke -- <options>

  --list
      One line per function: NAME<TAB>METHOD PATH, the authorizer, the scheduled functions,
      the queue consumers (NAME<TAB>QUEUE <queue>), the stream consumers (NAME<TAB>STREAM
      <table>), the WebSocket routes (NAME<TAB>WEBSOCKET <route key>).
  --generate-event 'METHOD PATH[?QUERY]' [--body JSON] [--header 'K: V']... [--user ID]
      Prints the API Gateway REST proxy event the local gateway builds for that request;
      --user fills its authorizer context as the real authorizer would for that user.
  --generate-event SQS --body MESSAGE [--body MESSAGE]...
      Prints an SQS event with one message per --body, as the queue consumer receives it.
  --generate-event 'WEBSOCKET <route key>[?QUERY]' [--body MESSAGE] [--header 'K: V']... [--connection ID]
      Prints the event of the live media log's WebSocket API for that route, as the local
      WebSocket server builds it: '$connect?ticket=…' with its headers (Origin), a message route
      (subscribe, unsubscribe, $default) with --body, '$disconnect'.
  --generate-event STREAM [--last N]
      Prints a DynamoDB Streams event of the media log's stream as the fold receives it: the
      entry changes the local stream holds (the last N of them with --last).
  NAME [--event FILE|-] [--user ID]
      Runs that function once on the event (standard input without --event) and prints its
      result as JSON; exits 0 when it returned, 1 when it threw, 2 on a usage error.
  --help
      Prints this text.

Uses the back-ends of a running \`npm start\` on the same DATA_DIR, or starts them for the call.`;

/** `npm run --silent invoke -- …`: run one function locally on an event, like `sam local invoke`. */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        list: { type: 'boolean' },
        'generate-event': { type: 'string' },
        body: { type: 'string', multiple: true },
        header: { type: 'string', multiple: true },
        event: { type: 'string' },
        user: { type: 'string' },
        last: { type: 'string' },
        connection: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageErrorOf(error);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const userId = values.user === undefined ? undefined : Number(values.user);
  if (userId !== undefined && !(Number.isSafeInteger(userId) && userId >= 1)) throw new UsageError('--user takes a user id.');

  if (values.list) {
    process.stdout.write(`${listFunctions().join('\n')}\n`);
    return 0;
  }
  if (values['generate-event'] !== undefined) {
    const bodies = values.body ?? [];
    if (values['generate-event'].trim().toUpperCase() === 'STREAM') {
      if (bodies.length > 0 || userId !== undefined || values.header !== undefined) throw new UsageError('a stream event has no --body, --user or --header: it holds the changes the local stream has.');
      const last = values.last === undefined ? undefined : Number(values.last);
      if (last !== undefined && !(Number.isSafeInteger(last) && last >= 1)) throw new UsageError('--last takes a number of changes (1 or more).');
      const event = await withData(() => generateStreamEvent(last));
      process.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
      return 0;
    }
    if (values.last !== undefined) throw new UsageError('--last goes with --generate-event STREAM.');
    if (isWebSocketLine(values['generate-event'])) {
      if (bodies.length > 1 || userId !== undefined) throw new UsageError('a WebSocket event takes at most one --body, and no --user: its connection was opened with a ticket.');
      const event = generateWebSocketEvent({ line: values['generate-event'], body: bodies[0], headers: values.header ?? [], connectionId: values.connection });
      process.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
      return 0;
    }
    if (values.connection !== undefined) throw new UsageError("--connection goes with --generate-event 'WEBSOCKET …'.");
    if (values['generate-event'].trim().toUpperCase() === 'SQS') {
      if (bodies.length === 0) throw new UsageError('--generate-event SQS takes one --body per message.');
      if (userId !== undefined || values.header !== undefined) throw new UsageError('an SQS event has no --user or --header.');
      process.stdout.write(`${JSON.stringify(generateSqsEvent(bodies, consumedQueues()[0] ?? 'queue'), null, 2)}\n`);
      return 0;
    }
    if (bodies.length > 1) throw new UsageError('an HTTP request takes at most one --body.');
    const [body] = bodies;
    if (body !== undefined) {
      try {
        JSON.parse(body);
      } catch {
        throw new UsageError('--body must be JSON.');
      }
    }
    const event = generateEvent(requestFromLine({ line: values['generate-event'], body, headers: values.header ?? [] }));
    if (userId !== undefined) {
      event.requestContext.authorizer = await withData((key) => authorizerContextFor(userId, event, key));
    }
    process.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('name a function (see --list), or use --list or --generate-event (see --help).');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  const target = functionNamed(name);
  const event = await readEvent(values.event);
  // A malformed event, or one the function does not take, is a usage error before any back-end is started for it.
  checkEventFor(target, event);
  return withData(async (key) => {
    let result: unknown;
    try {
      const delivered = target.kind === 'stream' ? await withShardOfLocalStream(event) : event;
      result = await runFunction(target, delivered, userId === undefined ? undefined : (proxy) => authorizerContextFor(userId, proxy, key));
      // What the feed consumer wrote is counted before the command returns, as after an import.
      if (target.kind === 'queue') await foldWrittenChanges();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  });
}

main(process.argv.slice(2))
  .catch(reportCliError)
  .then((status) => process.exit(status));
