import * as z from '../shared/validation/zod';
import { PaginationSchema, SortSchema } from '../shared/listing/list-reply-schemas';
import { AvatarSchema } from '../avatars/schemas';
import { FeedMessageSchema, MediaRequestMessageSchema, StatusMessageSchema } from '../media-log/feed/feed-messages';
import { PermissionsSchema, PlanSchema, UserSchema, UserSummarySchema } from '../users/schemas';
import { ProblemSchema } from './problem-schema';
import { LIVE_MESSAGE_SCHEMAS } from '../live/model/live-messages';

/** What the document needs to know about a schema besides the schema itself. */
export interface SchemaMeta {
  /** Name under `components/schemas`; every use of the schema becomes a `$ref` to it. */
  readonly id: string;
}

/**
 * The named resources of the interface (api-spec.md section 2). The one place that gives schemas
 * their component names: the schema files stay free of documentation concerns, and the document
 * references each resource by name instead of repeating it in every route.
 */
export const schemaNames = z.registry<SchemaMeta>();

/** The named schemas, each with its component name. */
export const NAMED_SCHEMAS: readonly (readonly [z.ZodMiniType, string])[] = [
  [UserSchema, 'User'],
  [UserSummarySchema, 'UserSummary'],
  [AvatarSchema, 'Avatar'],
  [PlanSchema, 'Plan'],
  [PermissionsSchema, 'Permissions'],
  [PaginationSchema, 'Pagination'],
  [SortSchema, 'Sort'],
  [ProblemSchema, 'Problem'],
];

/**
 * The messages of the media pipeline feed (DESIGN.md section 7a): no route takes them, the
 * `MediaLogEvents` queue does, so the document carries them as components for the pipeline team,
 * in the form a producer sends them.
 */
export const FEED_SCHEMAS: readonly (readonly [z.ZodMiniType, string])[] = [
  [FeedMessageSchema, 'FeedMessage'],
  [MediaRequestMessageSchema, 'MediaRequestMessage'],
  [StatusMessageSchema, 'StatusMessage'],
];

for (const [schema, id] of [...NAMED_SCHEMAS, ...FEED_SCHEMAS, ...LIVE_MESSAGE_SCHEMAS]) schemaNames.add(schema, { id });
