import type { Context } from 'aws-lambda';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';

/**
 * Invocations of the functions in this process, kept apart as Lambda keeps them apart.
 *
 * The local gateway runs every function in one process and serves requests concurrently, like a
 * Lambda execution environment of Lambda Managed Instances, whose Node.js runtime handles several
 * invocations at once in one thread
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-managed-instances-nodejs-runtime.html). That
 * runtime runs each invocation inside the `InvokeStore` of `@aws/lambda-invoke-store`, backed by an
 * AsyncLocalStorage when `AWS_LAMBDA_MAX_CONCURRENCY` is set, and Powertools then keeps what it
 * holds per invocation there instead of on the logger or the metrics object: the Lambda context,
 * the keys appended for a request (its correlation id), the stored metrics
 * (aws-powertools/powertools-lambda-typescript#5430). This module does the same for local runs,
 * so that one request's log lines never carry another's ids.
 */

/** Most concurrent invocations the variable announces; only its presence matters to Powertools. */
const LOCAL_MAX_CONCURRENCY = '64';

// The store first, then the variable: Powertools refuses to run when the variable is set and
// no store exists. Every process that loads this module gets both before any function runs.
const store = await InvokeStore.getInstanceAsync(true);
process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= LOCAL_MAX_CONCURRENCY;

/**
 * Whether `candidate` holds a context per invocation, so that two invocations awaiting at once
 * each read back their own. A process has one store, made by whoever asks first: the AWS SDK asks
 * on every request it sends, and without `AWS_LAMBDA_MAX_CONCURRENCY` it makes one that holds a
 * single context for the whole process, in which concurrent requests would log each other's ids.
 */
async function keepsInvocationsApart(candidate: typeof store): Promise<boolean> {
  const requestIds = ['first', 'second'];
  const seen = await Promise.all(
    requestIds.map((requestId) =>
      candidate.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, async () => {
        await Promise.resolve();
        return candidate.getRequestId();
      }),
    ),
  );
  return seen.every((requestId, index) => requestId === requestIds[index]);
}

if (!(await keepsInvocationsApart(store))) {
  throw new Error(
    'The InvokeStore of this process holds one invocation at a time: it was made before local/gateway/local-invocation.ts loaded (an AWS SDK request makes one). Import this module before anything sends a request.',
  );
}

/** Run one invocation of `handler` as the runtime does: inside its own InvokeStore context, holding its Lambda request id. */
export function invokeIsolated<E, R>(handler: (event: E, context: Context) => Promise<R>, event: E, context: Context): Promise<R> {
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () => handler(event, context));
}
