/**
 * Each table's logical id and the variable that carries its deployed name, apart from the table
 * definitions: the data configuration reads every name at cold start (config/data-config.ts)
 * without loading the keys and indexes of tables a function never touches. Each table definition
 * takes its id and variable from here (test/config/table-names.test.ts checks that none is missed).
 */
export const TABLE_NAMES = {
  users: { id: 'Users', nameEnv: 'USERS_TABLE_NAME' },
  mediaLog: { id: 'MediaLog', nameEnv: 'MEDIA_LOG_TABLE_NAME', layout: 2, layoutEnv: 'MEDIA_LOG_TABLE_LAYOUT' },
  mediaLogCounts: { id: 'MediaLogCounts', nameEnv: 'MEDIA_LOG_COUNTS_TABLE_NAME', layout: 2, layoutEnv: 'MEDIA_LOG_COUNTS_TABLE_LAYOUT' },
  mediaLogDeltas: { id: 'MediaLogDeltas', nameEnv: 'MEDIA_LOG_DELTAS_TABLE_NAME' },
  idempotency: { id: 'Idempotency', nameEnv: 'IDEMPOTENCY_TABLE_NAME' },
  liveConnections: { id: 'LiveConnections', nameEnv: 'LIVE_CONNECTIONS_TABLE_NAME' },
} as const;

/** The id and name variable of one table, and the layout of a table that has had more than one. */
export type TableName = (typeof TABLE_NAMES)[keyof typeof TABLE_NAMES];

/**
 * The tables whose layout the stack states to the functions (`layoutEnv`): a layout change moves a
 * table to a new one under the same name variable, and CloudFormation updates a function's code and
 * its settings in separate calls, so for a moment old code can run with the new table's name (or
 * new code with the old's). A function whose code's layout is not the one stated refuses to start
 * (config/data-config.ts): the queue or the stream delivers its batch again once both are updated,
 * where running would have written one layout's items, or counted one layout's changes, into the
 * other's table.
 */
export const LAYOUT_TABLES = Object.values(TABLE_NAMES).filter((table): table is Extract<TableName, { layout: number }> => 'layout' in table);
