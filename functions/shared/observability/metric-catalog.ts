/**
 * The service's business metrics, as data: name, CloudWatch unit and dimensions of each. The
 * functions record them as CloudWatch embedded metric format (metrics.ts), the stack's dashboard
 * draws them (lib/constructs/api-dashboard.ts), both from this one list. Pure data, so that the
 * stack reads it without loading the functions' code.
 */

/** Service name of the logs and metrics: `POWERTOOLS_SERVICE_NAME`, and the `service` dimension of every metric. */
export const SERVICE_NAME = 'frontend-api';

/** CloudWatch namespace of the service's metrics: `POWERTOOLS_METRICS_NAMESPACE`. */
export const METRICS_NAMESPACE = 'FrontendApi';

/** The dimension every metric line carries, valued {@link SERVICE_NAME}. */
export const SERVICE_DIMENSION = 'service';

/**
 * What a message of the media pipeline feed came to (section 7a of the design): `applied`,
 * `ignored` (a duplicate, or older than what is stored), `unknown-entry` (a status before its
 * request: retried), `rejected` (an id holding another request), `malformed`, `failed` (the write
 * failed: retried). The last four are reported for retry and end in the dead-letter queue if they persist.
 */
export const FEED_OUTCOMES = ['applied', 'ignored', 'unknown-entry', 'rejected', 'malformed', 'failed'] as const;

/** One of {@link FEED_OUTCOMES}. */
export type FeedOutcome = (typeof FEED_OUTCOMES)[number];

/**
 * What the read of a file a browser posted with an upload form came to: `read`, `missing` (S3
 * answered 404), or `denied` (S3 answered 403 AccessDenied). S3 answers a read of a missing key
 * 403 to a caller that may not list the bucket, as the upload routes may not, so `denied` is read
 * as missing; but it is also what every read gets once a policy no longer allows it.
 */
export const UPLOAD_READ_OUTCOMES = ['read', 'missing', 'denied'] as const;

/** One of {@link UPLOAD_READ_OUTCOMES}. */
export type UploadReadOutcome = (typeof UPLOAD_READ_OUTCOMES)[number];

/** A CloudWatch unit the catalog uses, as embedded metric format names it. */
export type CatalogUnit = 'Count' | 'Bytes' | 'Milliseconds';

/**
 * One metric: its unit and the dimensions it is recorded with (besides `service`). What each
 * counts is said beside it, in a comment, and in docs/operations.md, "Logs, metrics and traces": every function carries this table,
 * so it holds only what the lines are written from.
 */
export interface MetricDefinition {
  readonly unit: CatalogUnit;
  readonly dimensions: readonly string[];
}

/** Every business metric of the service, by name. */
export const METRICS = {
  /** Avatars uploaded, stored and enabled. */
  AvatarUploads: { unit: 'Count', dimensions: [] },
  /** Uploads that failed after their input was accepted, by reason: the code of the problem answered (upstream_timeout, image_too_large, …). */
  AvatarUploadFailures: { unit: 'Count', dimensions: ['reason'] },
  /** Size of each source image fetched for an upload. */
  AvatarFetchBytes: { unit: 'Bytes', dimensions: [] },
  /** Time to fetch each source image, redirects included. */
  AvatarFetchTime: { unit: 'Milliseconds', dimensions: [] },
  /** Reads of uploaded files (sources `upload:…`), by outcome (UPLOAD_READ_OUTCOMES). */
  UploadReads: { unit: 'Count', dimensions: ['outcome'] },
  /** DynamoDB items a media log listing read (entries, counters, profiles), per request; with MediaLogItemsReturned, items read per item returned. */
  MediaLogItemsRead: { unit: 'Count', dimensions: [] },
  /** Entries a media log listing returned, per request. */
  MediaLogItemsReturned: { unit: 'Count', dimensions: [] },
  /** Media pipeline feed messages, by outcome (FEED_OUTCOMES). */
  FeedMessages: { unit: 'Count', dimensions: ['outcome'] },
  /** Stream records the media log's fold could not read and skipped (each reported to its failure queue; a recount repairs their counts). */
  MediaLogFoldSkipped: { unit: 'Count', dimensions: [] },
  /** Tokens the authorizer refused (401) and requests it could not decide (idp_unavailable, 503), by reason. */
  AuthorizerDenials: { unit: 'Count', dimensions: ['reason'] },
} as const satisfies Readonly<Record<string, MetricDefinition>>;

/** The name of a business metric. */
export type MetricName = keyof typeof METRICS;

/** The dimensions a metric is recorded with, each a value. */
export type DimensionsOf<N extends MetricName> = Readonly<Record<(typeof METRICS)[N]['dimensions'][number], string>>;
