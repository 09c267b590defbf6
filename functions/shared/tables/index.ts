import type { TableDefinition } from './table-definition';
import { usersTable } from './users-table';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from './media-log-table';
import { idempotencyTable } from './idempotency-table';
import { liveConnectionsTable } from './live-connections-table';

export type { IndexDefinition, KeyAttribute, TableDefinition } from './table-definition';
export { keyAttributes, resourceId } from './table-definition';
export { usersTable } from './users-table';

/** Every table of the service: the stack provisions these and the local set-up creates them. */
export const tables: readonly TableDefinition[] = [usersTable, mediaLogTable, mediaLogCountsTable, mediaLogDeltasTable, idempotencyTable, liveConnectionsTable];
