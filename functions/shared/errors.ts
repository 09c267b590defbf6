/**
 * The one error model. Domain and HTTP layers throw these; the error middleware turns them into
 * RFC 9457 `application/problem+json` responses. `code` is stable and documented; `title` is the
 * short human summary of the code; `detail` explains this occurrence.
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
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/** Base of every error that maps to an HTTP problem response. */
export class ProblemError extends Error {
  public readonly status: number;
  public readonly code: string;
  public readonly title: string;
  public readonly detail: string;
  public readonly errors?: readonly FieldError[];
  public readonly headers: Readonly<Record<string, string>>;

  public constructor(status: number, code: string, title: string, options: ProblemOptions = {}) {
    super(options.detail ?? title, { cause: options.cause });
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = options.detail ?? title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** 400: the request is malformed or a parameter or field is invalid; `errors` names each one. */
export class ValidationError extends ProblemError {
  public constructor(errors: readonly FieldError[], detail = 'The request has invalid parameters or fields.') {
    super(400, 'validation_failed', 'Invalid request', { detail, errors });
    this.name = 'ValidationError';
  }
}

/** 400: the body is not well-formed JSON. */
export class MalformedBodyError extends ProblemError {
  public constructor(detail = 'The request body is not well-formed JSON.', cause?: unknown) {
    super(400, 'malformed_body', 'Malformed request body', { detail, cause });
    this.name = 'MalformedBodyError';
  }
}

/** 401: no bearer token, or one that is invalid or expired. */
export class UnauthorizedError extends ProblemError {
  public constructor(detail = 'A valid bearer token is required.') {
    super(401, 'unauthorized', 'Unauthorized', {
      detail,
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
    this.name = 'UnauthorizedError';
  }
}

/** 403: the caller is known but may not use the API (a suspended user). */
export class ForbiddenError extends ProblemError {
  public constructor(detail = 'This account may not use the API.') {
    super(403, 'forbidden', 'Forbidden', { detail });
    this.name = 'ForbiddenError';
  }
}

/** 404: does not exist, or lies outside the caller's scope (the two are indistinguishable on purpose). */
export class NotFoundError extends ProblemError {
  public constructor(detail = 'The resource does not exist.') {
    super(404, 'not_found', 'Not found', { detail });
    this.name = 'NotFoundError';
  }
}

/** 409: the request conflicts with the current state (an email already taken). */
export class ConflictError extends ProblemError {
  public constructor(detail: string, errors?: readonly FieldError[]) {
    super(409, 'conflict', 'Conflict', { detail, errors });
    this.name = 'ConflictError';
  }
}

/** 412: `If-Match` names a version that is no longer current. */
export class PreconditionFailedError extends ProblemError {
  public constructor(detail = 'The resource has changed since the version named in If-Match.') {
    super(412, 'precondition_failed', 'Precondition failed', { detail });
    this.name = 'PreconditionFailedError';
  }
}

/** 413: a body or a fetched image is larger than allowed. */
export class PayloadTooLargeError extends ProblemError {
  public constructor(detail: string, errors?: readonly FieldError[]) {
    super(413, 'payload_too_large', 'Payload too large', { detail, errors });
    this.name = 'PayloadTooLargeError';
  }
}

/** 415: a body that is not `application/json`. */
export class UnsupportedMediaTypeError extends ProblemError {
  public constructor(detail = 'Request bodies must be application/json.') {
    super(415, 'unsupported_media_type', 'Unsupported media type', { detail });
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** 422: well-formed but unusable input (an image that cannot be decoded, a crop outside it). */
export class UnprocessableError extends ProblemError {
  public constructor(code: string, detail: string, errors?: readonly FieldError[]) {
    super(422, code, 'Unprocessable content', { detail, errors });
    this.name = 'UnprocessableError';
  }
}

/** 502 / 504: an upstream the request depends on (the avatar source) failed or timed out. */
export class UpstreamError extends ProblemError {
  public constructor(status: 502 | 504, code: string, detail: string, cause?: unknown) {
    super(status, code, status === 504 ? 'Upstream timeout' : 'Bad gateway', { detail, cause });
    this.name = 'UpstreamError';
  }
}

/** 503: a dependency (DynamoDB, S3) is unavailable; the client may retry after `Retry-After`. */
export class ServiceUnavailableError extends ProblemError {
  public constructor(detail = 'A dependency is unavailable; retry shortly.', cause?: unknown, retryAfterSeconds = 1) {
    super(503, 'service_unavailable', 'Service unavailable', {
      detail,
      cause,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
    this.name = 'ServiceUnavailableError';
  }
}
