import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { LOCAL_REGION } from '../local-defaults';

/** A Lambda context for an in-process invocation, with the deadline the function would have. */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION ?? LOCAL_REGION}:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
