import { parseArgs } from 'node:util';
import { reportCliError, UsageError } from '../local/cli/cli-errors';
import { withData } from '../local/cli/data-access';
import { authorizerContextFor } from '../local/invoke/authorizer-context';
import { generateEvent, requestFromLine } from '../local/invoke/generate-event';
import { eventKind } from '../local/invoke/event-shape';
import { functionNamed, listFunctions, readEvent, runFunction } from '../local/invoke/run-function';

/**
 * `npm run --silent invoke -- …`: run one function locally on an event, like `sam local invoke`.
 *   --list                                   one line per function
 *   --generate-event 'METHOD PATH[?QUERY]' [--body JSON] [--header 'K: V']… [--user ID]
 *   NAME [--event FILE|-] [--user ID]        result JSON on stdout; exit 0, 1 if it threw, 2 on usage errors
 */
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
        body: { type: 'string' },
        header: { type: 'string', multiple: true },
        event: { type: 'string' },
        user: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const userId = values.user === undefined ? undefined : Number(values.user);
  if (userId !== undefined && !(Number.isSafeInteger(userId) && userId >= 1)) throw new UsageError('--user takes a user id.');

  if (values.list) {
    process.stdout.write(`${listFunctions().join('\n')}\n`);
    return 0;
  }
  if (values['generate-event'] !== undefined) {
    if (values.body !== undefined) {
      try {
        JSON.parse(values.body);
      } catch {
        throw new UsageError('--body must be JSON.');
      }
    }
    const event = generateEvent(requestFromLine({ line: values['generate-event'], body: values.body, headers: values.header ?? [] }));
    if (userId !== undefined) {
      event.requestContext.authorizer = await withData((key) => authorizerContextFor(userId, event, key));
    }
    process.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('name a function (see --list), or use --list or --generate-event.');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  const target = functionNamed(name);
  const event = await readEvent(values.event);
  // A malformed event is a usage error before any back-end is started for it.
  eventKind(event);
  return withData(async (key) => {
    let result: unknown;
    try {
      result = await runFunction(target, event, userId === undefined ? undefined : (proxy) => authorizerContextFor(userId, proxy, key));
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
