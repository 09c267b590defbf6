import { AVATAR_BUCKET_NAME } from '../storage/bucket-names';
import type { TableDefinition } from '../tables/table-definition';
import { LAYOUT_TABLES, TABLE_NAMES } from '../tables/table-names';
import { defineConfig, type EnvReader } from './define-config';

/** Variables of the AWS clients besides the resource names (the stack sets the names; local/ sets all). */
export const CLIENT_ENV = {
  region: 'AWS_REGION',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  accessKeyId: 'AWS_ACCESS_KEY_ID',
  secretAccessKey: 'AWS_SECRET_ACCESS_KEY',
} as const;

/** Where the AWS clients connect, and as whom: the region, the endpoints (local back-ends only) and the access key. */
export interface ClientConfig {
  readonly region: string;
  /** A DynamoDB endpoint other than AWS's (DynamoDB Local); undefined in AWS. */
  readonly dynamodbEndpoint?: string;
  /** An S3 endpoint other than AWS's (the local S3); undefined in AWS. */
  readonly s3Endpoint?: string;
  /** The configured access key, used as is on loopback endpoints (DynamoDB Local keeps a database per key id). */
  readonly accessKey?: { readonly id: string; readonly secret?: string };
}

/** Where the data lives: the clients' settings and the deployed resource names. */
export interface DataConfig extends ClientConfig {
  /** The deployed name of each table, by definition id. */
  readonly tableNames: Readonly<Record<string, string>>;
  readonly avatarBucket: string;
}

function readClientConfig(env: EnvReader): ClientConfig {
  const dynamodbEndpoint = env.optional(CLIENT_ENV.dynamodbEndpoint);
  const s3Endpoint = env.optional(CLIENT_ENV.s3Endpoint);
  const accessKeyId = env.optional(CLIENT_ENV.accessKeyId);
  const secret = env.optional(CLIENT_ENV.secretAccessKey);
  return {
    region: env.required(CLIENT_ENV.region),
    ...(dynamodbEndpoint === undefined ? {} : { dynamodbEndpoint }),
    ...(s3Endpoint === undefined ? {} : { s3Endpoint }),
    ...(accessKeyId === undefined ? {} : { accessKey: { id: accessKeyId, ...(secret === undefined ? {} : { secret }) } }),
  };
}

/**
 * The clients' section alone, without the resource names: for the local set-up, which creates
 * the tables and the bucket before the functions look them up, under the same region and key.
 */
export const clientConfig = /* @__PURE__ */ defineConfig('clients', readClientConfig);

/**
 * The data section: table and bucket names are required (in AWS the stack sets them; a function
 * without them fails its cold start rather than write to a table of a default name).
 */
export const dataConfig = /* @__PURE__ */ defineConfig('data', (env): DataConfig => {
  checkLayouts(env);
  return {
    ...readClientConfig(env),
    tableNames: Object.fromEntries(Object.values(TABLE_NAMES).map((table) => [table.id, env.required(table.nameEnv)])),
    avatarBucket: env.required(AVATAR_BUCKET_NAME.nameEnv),
  };
});

/**
 * A table's layout, where the stack states it, must be the one this code keeps (table-names.ts,
 * `LAYOUT_TABLES`): otherwise the function is half-way through an update and refuses to start.
 * Unset (local runs, the CLI on deployed tables), nothing is checked.
 */
function checkLayouts(env: EnvReader): void {
  for (const table of LAYOUT_TABLES) {
    const stated = env.optional(table.layoutEnv);
    if (stated !== undefined && stated !== String(table.layout)) {
      env.problem(`${table.layoutEnv}=${stated}, but this code keeps the ${table.id} table in layout ${table.layout}: a function half-way through an update refuses to run until its code and its settings agree`);
    }
  }
}

/** The deployed name of a table: what the stack passed in its definition's `nameEnv` variable. */
export function tableName(table: TableDefinition): string {
  return dataConfig().tableNames[table.id] as string;
}

/** The avatar bucket's deployed name. */
export function avatarBucketName(): string {
  return dataConfig().avatarBucket;
}
