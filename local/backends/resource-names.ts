import { dataConfig } from '../../functions/shared/config/data-config';
import { type TableDefinition, tables } from '../../functions/shared/tables/index';
import { withLocalDefaults } from '../local-defaults';
import { readSettings } from '../local-settings';

/**
 * Which names the local set-up gives the tables and the avatar bucket.
 */

/** How to name the provisioned resources; by default, the names the functions will look up (the local defaults where none is set). */
export interface NamingOptions {
  /** Put before every default name (bucket names must stay lowercase: `[a-z0-9.-]`). */
  readonly prefix?: string;
  /** Put after every default name. */
  readonly suffix?: string;
  /** Explicit table names by definition id, e.g. `{ Users: 'users-dev' }`; wins over prefix/suffix. */
  readonly tables?: Readonly<Record<string, string>>;
  /** Explicit bucket name; wins over prefix/suffix. */
  readonly bucket?: string;
}

/** A table definition with the name it gets. */
export interface NamedTable {
  readonly definition: TableDefinition;
  readonly name: string;
}

/** The resolved names of everything the local set-up provisions. */
export interface ResourceNames {
  readonly tables: readonly NamedTable[];
  readonly bucket: string;
}

/** Resolves the names of every table of `tables` and of the avatar bucket. */
export function resolveResourceNames(naming: NamingOptions = {}): ResourceNames {
  const decorate = (name: string): string => `${naming.prefix ?? ''}${name}${naming.suffix ?? ''}`;
  const lookedUp = readSettings(dataConfig, withLocalDefaults());
  return {
    tables: tables.map((definition) => ({
      definition,
      name: naming.tables?.[definition.id] ?? decorate(lookedUp.tableNames[definition.id] as string),
    })),
    bucket: naming.bucket ?? decorate(lookedUp.avatarBucket),
  };
}
