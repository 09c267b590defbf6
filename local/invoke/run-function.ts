import { readFile } from 'node:fs/promises';
import { deployedFunctionNamed, deployedFunctions } from '../../functions/deployed-functions';
import { routes } from '../../functions/routes';
import type { DeployedFunction } from '../../functions/shared/deployment/function-definitions';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';
import { UsageError } from '../cli/cli-errors';
import { loadAuthorizer } from '../gateway/authorizer-runner';
import { loadRouteHandler } from '../gateway/dispatch';
import { lambdaContext } from '../gateway/lambda-context';
import { eventKind, type AuthorizerEvent, type EventKind, type ProxyEvent } from './event-shape';

function routeLine(route: RouteDefinition): string {
  return `${route.method} ${API_PREFIX}${route.path}`;
}

/**
 * One line per function: `NAME<TAB>METHOD PATH` for routes, `NAME<TAB>AUTHORIZER` for the
 * authorizer, `NAME<TAB>SCHEDULE <expression>` for background functions, `NAME<TAB>QUEUE <queue>`
 * for queue consumers, `NAME<TAB>STREAM <table>` for stream consumers, `NAME<TAB>WEBSOCKET <route key>`
 * for the routes of the live media log's WebSocket API (DESIGN.md sections 8, 7b and 7c).
 */
export function listFunctions(): string[] {
  return deployedFunctions.map((fn) => {
    switch (fn.kind) {
      case 'route':
        return `${fn.name}\t${routeLine(fn.route)}`;
      case 'authorizer':
        return `${fn.name}\tAUTHORIZER`;
      case 'schedule':
        return `${fn.name}\tSCHEDULE ${fn.scheduled.schedule}`;
      case 'queue':
        return `${fn.name}\tQUEUE ${fn.consumer.queue}`;
      case 'stream':
        return `${fn.name}\tSTREAM ${fn.stream.table}`;
      case 'websocket':
        return `${fn.name}\tWEBSOCKET ${fn.webSocket.routeKey}`;
    }
  });
}

/** A function `invoke` can run: one of the deployed functions. */
export type InvokeTarget = DeployedFunction;

/** Read and parse the event: a file, or standard input for `-` or no `--event`. */
export async function readEvent(source: string | undefined): Promise<unknown> {
  let text: string;
  try {
    text = source === undefined || source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the event from ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the event is not valid JSON: ${(error as Error).message}.`);
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('give the event with --event FILE, or pipe it on standard input.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The function a NAME means; anything else is a usage error. */
export function functionNamed(name: string): InvokeTarget {
  const target = deployedFunctionNamed(name);
  if (!target) throw new UsageError(`no function named '${name}' (see --list).`);
  return target;
}

/** Writes a warning line on stderr, where `invoke` keeps everything but the function's result. */
const warnOnStderr = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/**
 * Why a proxy event does not fit a route, or undefined when it does: an event recorded for another
 * route would be answered by this function as if it were its own, and nothing else would say so.
 * In a Lambda proxy event, `resource` is the API resource the request matched and `httpMethod` its
 * method (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html,
 * "Input format of a Lambda function for proxy integration").
 */
export function routeMismatch(route: RouteDefinition, event: ProxyEvent): string | undefined {
  // Events recorded in AWS carry the resource with the prefix; one written by hand may leave it out.
  const fits = (candidate: RouteDefinition) =>
    candidate.method === event.httpMethod && [`${API_PREFIX}${candidate.path}`, candidate.path].includes(event.resource);
  if (fits(route)) return undefined;
  const owner = routes.find(fits);
  const whose = owner === undefined ? 'no function serves it' : `it is an event for ${owner.name}`;
  return `warning: the event is ${event.httpMethod} ${event.resource}, but ${route.name} serves ${routeLine(route)} (${whose}); running it anyway.`;
}

/** The kind of event each kind of function takes, and what to say when it is given another. */
function expectedEvent(target: InvokeTarget): { readonly kind: EventKind; readonly reason: string } {
  switch (target.kind) {
    case 'authorizer':
      return { kind: 'authorizer', reason: 'the authorizer takes a REQUEST authorizer event (type REQUEST, methodArn).' };
    case 'schedule':
      return { kind: 'scheduled', reason: `${target.name} takes a scheduled event (source aws.events, detail-type Scheduled Event).` };
    case 'queue':
      return { kind: 'sqs', reason: `${target.name} takes an SQS event (Records of ${target.consumer.queue} messages; see --generate-event SQS).` };
    case 'stream':
      return { kind: 'dynamodb-stream', reason: `${target.name} takes a DynamoDB Streams event (Records of ${target.stream.table} changes; see --generate-event).` };
    case 'route':
      return { kind: 'proxy', reason: `${target.name} takes an API Gateway REST proxy event.` };
    case 'websocket':
      return { kind: 'websocket', reason: `${target.name} takes an API Gateway WebSocket event (requestContext.eventType, routeKey, connectionId; see --generate-event 'WEBSOCKET ${target.webSocket.routeKey}').` };
  }
}

/**
 * Check that `event` is one `target` takes, so that a wrong event is a usage error before any
 * back-end is started for it: a malformed event, or one of another kind (a proxy event given to
 * the queue consumer).
 */
export function checkEventFor(target: InvokeTarget, event: unknown): void {
  const expected = expectedEvent(target);
  if (eventKind(event) !== expected.kind) throw new UsageError(expected.reason);
}

/**
 * Run one function once on an event, as Lambda would: a route's handler on a proxy event, the
 * authorizer on a REQUEST authorizer event, a background function on a scheduled event, a queue
 * consumer on an SQS event (its result is the batch response: the messages to retry), a stream
 * consumer on a DynamoDB Streams event.
 * `replaceAuthorizerContext` replaces a proxy event's authorizer context; `warn` is told when a
 * proxy event was made for another route (it still runs, as replaying odd events is the point).
 */
export async function runFunction(
  target: InvokeTarget,
  event: unknown,
  replaceAuthorizerContext?: (event: ProxyEvent) => Promise<Record<string, string | number | boolean>>,
  warn: (message: string) => void = warnOnStderr,
): Promise<unknown> {
  checkEventFor(target, event);
  if (target.kind === 'authorizer') {
    const authorizer = await loadAuthorizer();
    return authorizer(event as AuthorizerEvent, lambdaContext(target.name, 10_000));
  }
  if (target.kind === 'schedule') {
    const module = (await import(`../../${target.handler}`)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
    return module.handler(event, lambdaContext(target.name, 900_000));
  }
  if (target.kind === 'websocket') {
    const module = (await import(`../../${target.handler}`)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
    return module.handler(event, lambdaContext(target.name, 10_000));
  }
  if (target.kind === 'queue' || target.kind === 'stream') {
    const module = (await import(`../../${target.handler}`)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
    const timeoutSeconds = target.kind === 'queue' ? target.consumer.timeoutSeconds : target.stream.timeoutSeconds;
    return module.handler(event, lambdaContext(target.name, timeoutSeconds * 1000));
  }
  const proxyEvent = event as ProxyEvent;
  const mismatch = routeMismatch(target.route, proxyEvent);
  if (mismatch !== undefined) warn(mismatch);
  if (replaceAuthorizerContext) {
    proxyEvent.requestContext = { ...proxyEvent.requestContext, authorizer: await replaceAuthorizerContext(proxyEvent) };
  }
  const handler = await loadRouteHandler(target.route);
  return handler(proxyEvent, lambdaContext(target.name, target.image ? 28_000 : 10_000));
}
