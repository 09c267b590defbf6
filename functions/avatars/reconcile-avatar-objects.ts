import middy from '@middy/core';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { logger } from '../shared/logger';
import { invocationTelemetry } from '../shared/observability/invocation-telemetry';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { reconcileAvatarObjects, type ReconcileReport } from './avatar-reconciler';
import { AvatarRepository } from './avatar-repository';
import { AvatarStorage } from './avatar-storage';

/** The avatar objects, listed and deleted. */
const storage = /* @__PURE__ */ lazy(() => new AvatarStorage(getS3Client(), avatarBucketName()));

/** The avatar records, asked which objects they point at. */
const records = /* @__PURE__ */ lazy(() => new AvatarRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser));

async function reconcile(): Promise<ReconcileReport> {
  const report = await reconcileAvatarObjects(storage(), records());
  logger.info('Avatar objects reconciled', { examined: report.examined, deleted: report.deleted.length, spared: report.spared, foreign: report.foreign.length });
  if (report.foreign.length > 0) logger.warn('Objects under the avatar prefix that no upload wrote', { keys: report.foreign.slice(0, 100) });
  return report;
}

/**
 * Scheduled function (not a route): deletes avatar objects without a record, left by uploads or
 * deletions that crashed half-way. Meant to run daily, with `s3:ListBucket` on the avatar prefix.
 * Its lines carry the Lambda context like every function's; no API request, so no correlation id.
 */
export const handler = middy<unknown, ReconcileReport>(reconcile, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<unknown, ReconcileReport>(() => ({})));
