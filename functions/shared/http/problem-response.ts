import type { APIGatewayProxyResult } from 'aws-lambda';
import { InternalError, ProblemError, ServiceUnavailableError } from '../errors';
import { PROBLEM_MEDIA_TYPE, problemType } from './problem-catalog';

/** The body of a problem response. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: { name: string; reason: string }[];
}

/** Serialize a {@link ProblemError} into an RFC 9457 body. */
export function problemBody(error: ProblemError, instance?: string): ProblemBody {
  return {
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    ...(instance === undefined ? {} : { instance }),
    ...(error.errors === undefined ? {} : { errors: error.errors.map((e) => ({ name: e.name, reason: e.reason })) }),
  };
}

/** A complete proxy result for a problem, with the error's own headers (Retry-After, WWW-Authenticate). */
export function problemResult(error: ProblemError, instance?: string): APIGatewayProxyResult {
  return {
    statusCode: error.status,
    headers: { 'content-type': PROBLEM_MEDIA_TYPE, ...error.headers },
    body: JSON.stringify(problemBody(error, instance)),
  };
}

const UNAVAILABLE_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'SlowDown',
  'TimeoutError',
]);
const UNAVAILABLE_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** Connection failures as Node reports them; also matched in messages, where a wrapper kept only the text. */
const CONNECTION_FAILURE = /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EAI_AGAIN|socket hang up)\b/;

/**
 * Whether an unexpected error means a dependency is down or throttling (503 with Retry-After)
 * rather than a bug (500): connection failures and the SDK's throttling/5xx errors. Checked by
 * shape, not `instanceof`: errors may come from another realm (the SDK wraps those by message).
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { name, code, message, cause, $metadata } = error as {
    name?: unknown; code?: unknown; message?: unknown; cause?: unknown; $metadata?: { httpStatusCode?: number };
  };
  if (typeof name === 'string' && UNAVAILABLE_ERROR_NAMES.has(name)) return true;
  if (typeof code === 'string' && UNAVAILABLE_ERROR_CODES.has(code)) return true;
  if (typeof message === 'string' && CONNECTION_FAILURE.test(message)) return true;
  if (typeof $metadata?.httpStatusCode === 'number' && $metadata.httpStatusCode >= 500) return true;
  return cause !== undefined && cause !== error && isDependencyUnavailable(cause, depth + 1);
}

/** Map any thrown value to the problem the client sees; internals of a 5xx are never exposed. */
export function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (isDependencyUnavailable(error)) return new ServiceUnavailableError(undefined, error);
  return new InternalError(error);
}
