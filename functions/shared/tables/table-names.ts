/**
 * Each table's logical id and the variable that carries its deployed name, apart from the table
 * definitions: the data configuration reads every name at cold start (config/data-config.ts)
 * without loading the keys and indexes of tables a function never touches. Each table definition
 * takes its id and variable from here (test/config/table-names.test.ts checks that none is missed).
 */
export const TABLE_NAMES = {
  users: { id: 'Users', nameEnv: 'USERS_TABLE_NAME' },
  mediaLog: { id: 'MediaLog', nameEnv: 'MEDIA_LOG_TABLE_NAME' },
  mediaLogCounts: { id: 'MediaLogCounts', nameEnv: 'MEDIA_LOG_COUNTS_TABLE_NAME' },
  idempotency: { id: 'Idempotency', nameEnv: 'IDEMPOTENCY_TABLE_NAME' },
  liveConnections: { id: 'LiveConnections', nameEnv: 'LIVE_CONNECTIONS_TABLE_NAME' },
} as const;

/** The id and name variable of one table. */
export type TableName = (typeof TABLE_NAMES)[keyof typeof TABLE_NAMES];
