/**
 * The data each deployed function may touch, declared beside its definition (route table,
 * background and queue functions): the stack grants exactly this and nothing more.
 */

/** Data a route touches, and how: read or write, per table and for the avatar objects. */
export interface RouteGrants {
  readonly users?: 'read' | 'write';
  readonly mediaLog?: 'read' | 'write';
  readonly avatars?: 'read' | 'write';
}

/** An S3 operation on the avatar prefix: `list` its keys, `delete` objects under it. */
export type AvatarOperation = 'list' | 'delete';

/** A DynamoDB operation on a table: `batchGet` reads items by primary key (no index). */
export type TableOperation = 'batchGet';

/**
 * Data a background function touches, operation by operation, under the same keys as a route's
 * grants. Finer than a route's read/write levels: a sweep that lists and deletes objects gets
 * neither reads nor writes of their content.
 */
export type BackgroundGrants = {
  readonly [K in keyof RouteGrants]?: readonly (K extends 'avatars' ? AvatarOperation : TableOperation)[];
};
