import middy from '@middy/core';
import { readEntryChanges } from '../../media-log/fold/stream-changes';
import type { MediaLogStreamEvent, MediaLogStreamResponse } from '../../media-log/fold/stream-batch';
import { dataConfig } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { liveConnectionsConfig } from '../live-config';
import { liveConnectionsApi, liveRegistry } from '../live-composition';
import { DeliveryPlanner } from './delivery-planner';
import { MediaLogNotifier } from './media-log-notifier';
import { RegistryCopy } from './registry-copy';

// A function deployed without its table names or its @connections endpoint fails its cold start.
dataConfig();
liveConnectionsConfig();

// One copy of the registry and one planner per execution environment: Lambda hands a shard's
// batches to the same environment one after another, and they carry the coalescing across batches.
const notifier = /* @__PURE__ */ lazy(() => {
  const store = liveRegistry();
  return new MediaLogNotifier({
    registry: new RegistryCopy({ everything: () => store.everything(), journalSince: (after) => store.journalSince(after) }),
    planner: new DeliveryPlanner(),
    store,
    connections: liveConnectionsApi,
    clock: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
});

/**
 * One batch of the media log's stream: the changes read from its images (as the fold reads them),
 * pushed to whoever watches. A failure throws: the mapping retries the batch, bisecting it, until
 * its records are a minute old. Records that cannot be read are skipped (the fold reports them).
 */
async function notify(event: MediaLogStreamEvent): Promise<MediaLogStreamResponse> {
  const { changes } = readEntryChanges(event.Records ?? []);
  const outcome = await notifier().notify(changes, event.shardId);
  if (outcome.posts > 0 || outcome.refresh === 'full' || outcome.gone > 0) logger.info('Live batch', { shardId: event.shardId, records: event.Records?.length ?? 0, ...outcome });
  return { state: {}, batchItemFailures: [] };
}

/** The second consumer of the media log table's stream: the live media log's pushes. */
export const handler = middy<MediaLogStreamEvent, MediaLogStreamResponse>(notify, { timeoutEarlyInMillis: 0 }).use(
  invocationTelemetry<MediaLogStreamEvent, MediaLogStreamResponse>(() => ({})),
);
