import middy from '@middy/core';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { familyChanges, type UserImageRecord } from './family-changes';
import { familyRekey } from './family-stores';

// Deployed without its table names, the function fails its cold start.
dataConfig();

const rekey = /* @__PURE__ */ lazy(() => familyRekey(getDocumentClient()));

/** The answer a tumbling window requires; nothing is kept across batches. */
interface RekeyResponse {
  readonly state: Record<string, string>;
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

/**
 * One batch of the users table's stream: the entries of each user whose family changed, moved to
 * the new family. Moving again re-keys nothing twice (an entry already in its family is left
 * alone), so a retried or bisected batch only finishes what the last try began.
 */
async function rekeyMoved(event: DynamoDBStreamEvent): Promise<RekeyResponse> {
  for (const { userId, from, to } of familyChanges((event.Records ?? []) as UserImageRecord[])) {
    const report = await rekey().move(userId, from, to);
    logger.info('Family re-keyed', { userId, from, to, ...report });
  }
  return { state: {}, batchItemFailures: [] };
}

/** The consumer of the users table's stream that re-keys the entries of moved users. */
export const handler = middy<DynamoDBStreamEvent, RekeyResponse>(rekeyMoved, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<DynamoDBStreamEvent, RekeyResponse>(() => ({})));
