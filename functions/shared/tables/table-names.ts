import type { TableDefinition } from './table-definition';

/**
 * The name of a table in the current environment: the deployed name the stack passes in the
 * definition's `nameEnv` variable, or the definition's id locally.
 */
export function tableName(table: TableDefinition): string {
  return process.env[table.nameEnv] || table.id;
}
