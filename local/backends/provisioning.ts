import { createDynamoDbClient, createS3Client } from '../../functions/shared/aws/clients';
import { clientConfig } from '../../functions/shared/config/data-config';
import { withLocalDefaults } from '../local-defaults';
import { readSettings } from '../local-settings';
import { provisionBucket } from './bucket-provisioning';
import { type NamingOptions, resolveResourceNames } from './resource-names';
import { type ProvisionOutcome, type TableProvisioning, provisionTable } from './table-provisioning';

/**
 * Provisions every table and the avatar bucket on given endpoints, idempotently.
 */

/** Where to provision. */
export interface ProvisioningTarget {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
}

/** What provisioning found and did. */
export interface ProvisioningReport {
  readonly tables: readonly TableProvisioning[];
  readonly bucket: { readonly name: string; readonly outcome: ProvisionOutcome };
}

/**
 * Creates every table of `tables` and the avatar bucket where missing, under the names `naming`
 * resolves to (by default, the names the functions look up in this environment).
 */
export async function provisionResources(target: ProvisioningTarget, naming: NamingOptions = {}): Promise<ProvisioningReport> {
  const names = resolveResourceNames(naming);
  // The region and access key the functions will use: DynamoDB Local keeps one database per key
  // id and region, so tables provisioned under another would be tables nobody reads. No time
  // limits but the SDK's: a back-end that has just started may take its time to answer.
  const { region, accessKey } = readSettings(clientConfig, withLocalDefaults());
  const dynamodb = createDynamoDbClient({ region, accessKey, endpoint: target.dynamodbEndpoint });
  const s3 = createS3Client({ region, accessKey, endpoint: target.s3Endpoint });
  try {
    const [tableReports, bucketOutcome] = await Promise.all([
      Promise.all(names.tables.map((table) => provisionTable(dynamodb, table))),
      provisionBucket(s3, names.bucket),
    ]);
    return { tables: tableReports, bucket: { name: names.bucket, outcome: bucketOutcome } };
  } finally {
    dynamodb.destroy();
    s3.destroy();
  }
}

/** One-line warnings for tables that differ from their definitions. */
export function driftWarnings(report: ProvisioningReport): string[] {
  return report.tables
    .filter((table) => table.drift.length > 0)
    .map((table) => `Table ${table.name} differs from its definition (${table.drift.join(', ')}): delete it (or the data directory) to recreate it.`);
}
