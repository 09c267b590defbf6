import { InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * `work`, inside an InvokeStore context of its own when the process announces invocations that
 * share it (`AWS_LAMBDA_MAX_CONCURRENCY`, see invoke-store.ts) but this invocation came without
 * one: a handler called directly, as `invoke` and the tests call a queue consumer, rather than by
 * the Lambda runtime or the local gateway, which run every invocation in its own context
 * (local/gateway/local-invocation.ts). Powertools Batch keeps a batch's records and failures in
 * that context, and refuses to work without one.
 */
export function withinInvocation<T>(context: Context, work: () => Promise<T>): Promise<T> {
  const store = globalThis.awslambda?.InvokeStore;
  if (store === undefined || process.env.AWS_LAMBDA_MAX_CONCURRENCY === undefined || store.hasContext()) return work();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, work);
}
