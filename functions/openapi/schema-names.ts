import * as z from '../shared/validation/zod';
import { PaginationSchema, SortSchema } from '../shared/listing/pagination';
import { AvatarSchema } from '../avatars/schemas';
import { PermissionsSchema, PlanSchema, UserSchema, UserSummarySchema } from '../users/schemas';
import { ProblemSchema } from './problem-schema';

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

for (const [schema, id] of NAMED_SCHEMAS) schemaNames.add(schema, { id });
