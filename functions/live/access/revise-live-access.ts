import middy from '@middy/core';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { dataConfig } from '../../shared/config/data-config';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { liveConnectionsConfig } from '../live-config';
import { liveAccessKeeper } from '../live-composition';
import { batchAccessChanges, type UserStreamRecord } from './access-changes';

// Deployed without its table names or its @connections endpoint, the function fails its cold start.
dataConfig();
liveConnectionsConfig();

/** The answer a tumbling window requires; nothing is kept across batches. */
interface AccessResponse {
  readonly state: Record<string, string>;
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

/**
 * One batch of the users table's stream: what its profile changes ask of the live connections,
 * applied. Applying twice closes nothing twice and rescopes to the same scope, so a retried
 * or bisected batch is harmless.
 */
async function revise(event: DynamoDBStreamEvent): Promise<AccessResponse> {
  const changes = batchAccessChanges((event.Records ?? []) as UserStreamRecord[]);
  if (changes.length > 0) logger.info('Live access changed', { changes: changes.length, ...(await liveAccessKeeper().apply(changes)) });
  return { state: {}, batchItemFailures: [] };
}

/** The consumer of the users table's stream: revocation and rescoping of live connections. */
export const handler = middy<DynamoDBStreamEvent, AccessResponse>(revise, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<DynamoDBStreamEvent, AccessResponse>(() => ({})));
