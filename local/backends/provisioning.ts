import { provisionBucket } from './bucket-provisioning';
import { provisioningDynamoDbClient, provisioningS3Client } from './provisioning-clients';
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
  const dynamodb = provisioningDynamoDbClient(target.dynamodbEndpoint);
  const s3 = provisioningS3Client(target.s3Endpoint);
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
