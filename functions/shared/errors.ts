import { PROBLEMS, problemHeaders, type ProblemCode, type ProblemCodeOf, type UpstreamCode } from './http/problem-catalog';

/**
 * The one error model. Domain and HTTP layers throw these; the error middleware turns them into
 * RFC 9457 `application/problem+json` responses. Each error names a `code` of the problem catalog
 * (functions/shared/http/problem-catalog.ts), which fixes its status, title and headers; `detail`
 * explains this occurrence.
 */

/** One invalid input: the parameter or field (`crop.size`, `pagination[limit]`) and why. */
export interface FieldError {
  readonly name: string;
  readonly reason: string;
}

/** Options shared by every {@link ProblemError}. */
export interface ProblemOptions {
  readonly detail?: string;
  readonly errors?: readonly FieldError[];
  /** Headers of this occurrence, besides those of its code. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/** Base of every error that maps to an HTTP problem response. */
export class ProblemError extends Error {
  public readonly status: number;
  public readonly code: ProblemCode;
  public readonly title: string;
  public readonly detail: string;
  public readonly errors?: readonly FieldError[];
  public readonly headers: Readonly<Record<string, string>>;

  public constructor(code: ProblemCode, options: ProblemOptions = {}) {
    const entry = PROBLEMS[code];
    const detail = options.detail ?? entry.detail;
    super(detail, { cause: options.cause });
    this.name = 'ProblemError';
    this.status = entry.status;
    this.code = code;
    this.title = entry.title;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = { ...problemHeaders(code), ...options.headers };
  }
}

/** 400: the request is malformed or a parameter or field is invalid; `errors` names each one. */
export class ValidationError extends ProblemError {
  public constructor(errors: readonly FieldError[], detail?: string) {
    super('validation_failed', { detail, errors });
    this.name = 'ValidationError';
  }
}

/** 400: the body is not well-formed JSON. */
export class MalformedBodyError extends ProblemError {
  public constructor(detail?: string, cause?: unknown) {
    super('malformed_body', { detail, cause });
    this.name = 'MalformedBodyError';
  }
}

/** 401: no bearer token, one that is invalid or expired, or one whose user is gone. */
export class UnauthorizedError extends ProblemError {
  public constructor(detail?: string) {
    super('unauthorized', { detail });
    this.name = 'UnauthorizedError';
  }
}

/** 403: the caller is known but may not use the API (a suspended or pending user). */
export class ForbiddenError extends ProblemError {
  public constructor(detail?: string) {
    super('forbidden', { detail });
    this.name = 'ForbiddenError';
  }
}

/** 404: does not exist, or lies outside the caller's scope (the two are indistinguishable on purpose). */
export class NotFoundError extends ProblemError {
  public constructor(detail?: string) {
    super('not_found', { detail });
    this.name = 'NotFoundError';
  }
}

/** 409: the request conflicts with the current state (an email already taken). */
export class ConflictError extends ProblemError {
  public constructor(detail: string, errors?: readonly FieldError[]) {
    super('conflict', { detail, errors });
    this.name = 'ConflictError';
  }
}

/** 412: `If-Match` names a version that is no longer current. */
export class PreconditionFailedError extends ProblemError {
  public constructor(detail?: string) {
    super('precondition_failed', { detail });
    this.name = 'PreconditionFailedError';
  }
}

/** 413: a body or a fetched image is larger than allowed. */
export class PayloadTooLargeError extends ProblemError {
  public constructor(detail: string, errors?: readonly FieldError[]) {
    super('payload_too_large', { detail, errors });
    this.name = 'PayloadTooLargeError';
  }
}

/** 415: a body that is not `application/json`. */
export class UnsupportedMediaTypeError extends ProblemError {
  public constructor(detail?: string) {
    super('unsupported_media_type', { detail });
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** 422: well-formed but unusable input (an image that cannot be decoded, a crop outside it). */
export class UnprocessableError extends ProblemError {
  public constructor(code: ProblemCodeOf<422>, detail: string, errors?: readonly FieldError[], cause?: unknown) {
    super(code, { detail, errors, cause });
    this.name = 'UnprocessableError';
  }
}

/** 502 / 504: an upstream the request depends on (the avatar source) failed or timed out. */
export class UpstreamError extends ProblemError {
  public constructor(code: UpstreamCode, detail: string, cause?: unknown) {
    super(code, { detail, cause });
    this.name = 'UpstreamError';
  }
}

/** 503: a dependency (DynamoDB, S3, the token issuer) is unavailable; the client may retry after `Retry-After`. */
export class ServiceUnavailableError extends ProblemError {
  public constructor(detail?: string, cause?: unknown, retryAfterSeconds = 1) {
    super('service_unavailable', { detail, cause, headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.name = 'ServiceUnavailableError';
  }
}

/** 500: anything unexpected; its detail never shows internals, its cause is logged. */
export class InternalError extends ProblemError {
  public constructor(cause: unknown) {
    super('internal_error', { cause });
    this.name = 'InternalError';
  }
}
