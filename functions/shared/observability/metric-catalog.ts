/**
 * The service's business metrics, as data: name, CloudWatch unit and dimensions of each. The
 * functions record them as CloudWatch embedded metric format (metrics.ts), the stack's dashboard
 * draws them (lib/constructs/api-dashboard.ts), both from this one list. Pure data, so that the
 * stack reads it without loading Powertools.
 */

/** Service name of the logs and metrics: `POWERTOOLS_SERVICE_NAME`, and the `service` dimension of every metric. */
export const SERVICE_NAME = 'frontend-api';

/** CloudWatch namespace of the service's metrics: `POWERTOOLS_METRICS_NAMESPACE`. */
export const METRICS_NAMESPACE = 'FrontendApi';

/** The dimension Powertools adds to every metric, valued {@link SERVICE_NAME}. */
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

/** A CloudWatch unit the catalog uses (the names Powertools' `MetricUnit` has for them). */
export type CatalogUnit = 'Count' | 'Bytes' | 'Milliseconds';

/** One metric: its unit, the dimensions it is recorded with (besides `service`), and what it counts. */
export interface MetricDefinition {
  readonly unit: CatalogUnit;
  readonly dimensions: readonly string[];
  readonly description: string;
}

/** Every business metric of the service, by name. */
export const METRICS = {
  AvatarUploads: { unit: 'Count', dimensions: [], description: 'Avatars uploaded, stored and enabled.' },
  AvatarUploadFailures: {
    unit: 'Count',
    dimensions: ['reason'],
    description: 'Uploads that failed after their input was accepted, by reason: the code of the problem answered (upstream_timeout, image_too_large, …).',
  },
  AvatarFetchBytes: { unit: 'Bytes', dimensions: [], description: 'Size of each source image fetched for an upload.' },
  AvatarFetchTime: { unit: 'Milliseconds', dimensions: [], description: 'Time to fetch each source image, redirects included.' },
  MediaLogItemsRead: {
    unit: 'Count',
    dimensions: [],
    description: 'DynamoDB items a media log listing read (entries, counters, profiles), per request; with MediaLogItemsReturned, items read per item returned.',
  },
  MediaLogItemsReturned: { unit: 'Count', dimensions: [], description: 'Entries a media log listing returned, per request.' },
  FeedMessages: { unit: 'Count', dimensions: ['outcome'], description: `Media pipeline feed messages, by outcome: ${FEED_OUTCOMES.join(', ')}.` },
  AuthorizerDenials: {
    unit: 'Count',
    dimensions: ['reason'],
    description: 'Tokens the authorizer refused (401) and requests it could not decide (idp_unavailable, 503), by reason.',
  },
} as const satisfies Readonly<Record<string, MetricDefinition>>;

/** The name of a business metric. */
export type MetricName = keyof typeof METRICS;

/** The dimensions a metric is recorded with, each a value. */
export type DimensionsOf<N extends MetricName> = Readonly<Record<(typeof METRICS)[N]['dimensions'][number], string>>;
