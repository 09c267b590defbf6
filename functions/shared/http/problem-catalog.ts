/**
 * The one vocabulary of error answers (RFC 9457 problems, DESIGN.md section 5): every `code` the
 * API can answer with, its HTTP status, its title, the detail it carries unless an occurrence says
 * more, and the headers that always come with it. The error classes (functions/shared/errors.ts),
 * API Gateway's own answers (gateway-problems.ts, rendered by lib/ and served by local/) and the
 * OpenAPI document's error answers are all derived from this table, so a client sees one
 * vocabulary whether a function or the gateway answered.
 */

/** Media type of every error body (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Base of the `type` URIs: `urn:frontend-api:problem:<code>`, one per code of the catalog. */
export const PROBLEM_TYPE_BASE = 'urn:frontend-api:problem:';

/** One entry of the catalog. */
export interface ProblemEntry {
  readonly status: number;
  /** Short human summary of the code; the same for every occurrence. */
  readonly title: string;
  /** What an occurrence says when it has nothing more specific to say. */
  readonly detail: string;
  /** Headers every answer with this code carries. */
  readonly headers?: Readonly<Record<string, string>>;
}

// RFC 6750 section 3: tells the client to refresh its token rather than give up.
const INVALID_TOKEN = { 'WWW-Authenticate': 'Bearer error="invalid_token"' } as const;
const RETRY_SHORTLY = { 'Retry-After': '1' } as const;
const UNPROCESSABLE = 'Unprocessable content';

/** Every problem code of the API. */
export const PROBLEMS = {
  validation_failed: { status: 400, title: 'Invalid request', detail: 'The request has invalid parameters or fields.' },
  malformed_body: { status: 400, title: 'Malformed request body', detail: 'The request body is not well-formed JSON.' },
  bad_request: { status: 400, title: 'Bad request', detail: 'The request is malformed.' },
  unauthorized: { status: 401, title: 'Unauthorized', detail: 'A valid bearer token is required.', headers: INVALID_TOKEN },
  forbidden: { status: 403, title: 'Forbidden', detail: 'This account may not use the API.' },
  not_found: { status: 404, title: 'Not found', detail: 'The resource does not exist.' },
  conflict: { status: 409, title: 'Conflict', detail: 'The request conflicts with the current state.' },
  // DESIGN.md 5b: the first request with this key still runs; a retry after Retry-After gets its answer.
  idempotency_key_in_use: {
    status: 409,
    title: 'Conflict',
    detail: 'A request with this Idempotency-Key is still in progress: retry after Retry-After seconds to get its answer.',
    headers: RETRY_SHORTLY,
  },
  precondition_failed: { status: 412, title: 'Precondition failed', detail: 'The resource has changed since the version named in If-Match.' },
  payload_too_large: { status: 413, title: 'Payload too large', detail: 'The request body is too large.' },
  uri_too_long: { status: 414, title: 'URI too long', detail: 'The request URL is longer than the gateway accepts.' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', detail: 'Request bodies must be application/json.' },
  unsupported_image: { status: 422, title: UNPROCESSABLE, detail: 'The file is not a JPEG, PNG, WebP or GIF image.' },
  invalid_image: { status: 422, title: UNPROCESSABLE, detail: 'The image is damaged or truncated and cannot be decoded.' },
  too_many_pixels: { status: 422, title: UNPROCESSABLE, detail: 'The image has more pixels than allowed.' },
  crop_outside_image: { status: 422, title: UNPROCESSABLE, detail: 'The crop square lies outside the image.' },
  upload_not_found: {
    status: 422,
    title: UNPROCESSABLE,
    detail: 'The upload named by `avatar` does not exist: it was never posted, was already used, expired, or belongs to another user. Ask for a new upload form.',
  },
  // The caller named a source that does not exist or takes no connections: the caller's to fix,
  // not an upstream failure, so neither a 5xx nor a page for whoever is on call.
  source_unresolvable: {
    status: 422,
    title: UNPROCESSABLE,
    detail: 'The host name of the image address does not exist or has no address.',
  },
  source_refused: { status: 422, title: UNPROCESSABLE, detail: 'The host of the image address refused the connection: nothing serves on its port.' },
  idempotency_key_reused: {
    status: 422,
    title: UNPROCESSABLE,
    detail: 'This Idempotency-Key was sent with another request (another operation, path or body): send a new key with a new request.',
  },
  throttled: { status: 429, title: 'Too many requests', detail: 'The request rate limit is exceeded; retry shortly.', headers: RETRY_SHORTLY },
  // Each occurrence says when the next day's forms may be had (Retry-After).
  upload_forms_exhausted: {
    status: 429,
    title: 'Too many requests',
    detail: 'This user has been given as many upload forms as a day allows; ask again after `Retry-After` seconds (midnight UTC).',
  },
  header_fields_too_large: { status: 431, title: 'Request header fields too large', detail: 'The request headers are larger than the gateway accepts.' },
  internal_error: { status: 500, title: 'Internal server error', detail: 'The request could not be completed; it has been logged with its request id.' },
  bad_gateway: { status: 502, title: 'Bad gateway', detail: 'The request could not be processed.' },
  upstream_failed: { status: 502, title: 'Bad gateway', detail: 'The image source could not be reached or did not deliver the image.' },
  too_many_redirects: { status: 502, title: 'Bad gateway', detail: 'The image source redirected too often.' },
  service_unavailable: { status: 503, title: 'Service unavailable', detail: 'A dependency is unavailable; retry shortly.', headers: RETRY_SHORTLY },
  gateway_timeout: { status: 504, title: 'Gateway timeout', detail: 'The request took too long to process.' },
  upstream_timeout: { status: 504, title: 'Upstream timeout', detail: 'The image source did not answer in time.' },
} as const satisfies Readonly<Record<string, ProblemEntry>>;

/** The codes of an image source that failed (502) or was too slow (504), the only upstream the API fetches from. */
export const UPSTREAM_CODES = ['upstream_failed', 'too_many_redirects', 'upstream_timeout'] as const;

/** One of {@link UPSTREAM_CODES}. */
export type UpstreamCode = (typeof UPSTREAM_CODES)[number];

/** A problem code of the catalog. */
export type ProblemCode = keyof typeof PROBLEMS;

/** The codes of one status, e.g. every 422 code. */
export type ProblemCodeOf<S extends number> = { [C in ProblemCode]: (typeof PROBLEMS)[C]['status'] extends S ? C : never }[ProblemCode];

/** The `type` URI of a code. */
export function problemType(code: ProblemCode): string {
  return `${PROBLEM_TYPE_BASE}${code}`;
}

/** The headers that always come with a code (none for most). */
export function problemHeaders(code: ProblemCode): Readonly<Record<string, string>> {
  const entry: ProblemEntry = PROBLEMS[code];
  return entry.headers ?? {};
}
