/**
 * Powertools keeps what belongs to one invocation (the Lambda context, appended log keys, stored
 * metrics) in the runtime's `InvokeStore` when `AWS_LAMBDA_MAX_CONCURRENCY` says invocations share
 * the process (Lambda Managed Instances, the local gateway), and refuses to log when that store is
 * missing. A Lambda runtime creates the store before the function loads, as the local gateway does
 * (local/gateway/local-invocation.ts). A process that merely inherited the variable (a CLI or test
 * child process of a local gateway) has no store and runs one invocation at a time: for it the
 * variable is dropped here, before any Powertools object exists.
 */
if (process.env.AWS_LAMBDA_MAX_CONCURRENCY !== undefined && globalThis.awslambda?.InvokeStore === undefined) {
  delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
}

/** Whether this process runs inside the Lambda runtime (rather than the local gateway, `invoke`, a test or a bench). */
export function inLambda(): boolean {
  return process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
}
