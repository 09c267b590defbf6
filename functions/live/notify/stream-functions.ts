import type { StreamConsumerDefinition } from '../../shared/deployment/function-definitions';
import { ENTRY_KEY_PREFIX } from '../../media-log/model/keys';
import { LIVE_PARTITIONS } from '../model/live-keys';
import { CONNECTION_REMOVAL } from '../connections/websocket-routes';

/**
 * The notifier of the live media log (DESIGN.md 7c): the media log table stream's second consumer
 * (a DynamoDB stream serves two at most per shard), with an event source mapping of its own.
 */
export const notifyMediaLogWatchersFunction = {
  name: 'notifyMediaLogWatchers',
  handler: 'functions/live/notify/notify-media-log-watchers.ts',
  description: 'the live media log: pushes each change of an entry to the connections whose subscriptions it concerns',
  table: 'MediaLog',
  keyPrefixes: [ENTRY_KEY_PREFIX],
  // Latency before batching: a change reaches a browser within 2 s (DESIGN.md 9). Lambda polls a
  // shard four times a second and hands over what it found at once; a shard takes ~1,000
  // records/s at the design rate, and the live bench matches such a batch against 10,000 watchers
  // in milliseconds, so a second's records are one invocation.
  batchSize: 1000,
  maxBatchingWindowSeconds: 0,
  // The window only names the batch's shard in the event: the notifier shares the rate limits
  // with the other shards' notifiers by name.
  tumblingWindowSeconds: 900,
  // A batch holds coalesced messages back for at most a second or so.
  timeoutSeconds: 30,
  // A change older than a minute is news to no one (a client refetches when it reconnects): retries
  // stop then, and the batch is described in the failure queue.
  maximumRecordAgeSeconds: 60,
  failureQueue: 'MediaLogNotifyFailures',
  failureAdvice: 'Browsers watching missed those changes for a while; each refetches its page when it reconnects, so nothing is to repair: find why the batch failed.',
  grants: {
    liveConnections: [
      // The registry's partitions (a full read) and its journal (every second), and this notifier's heartbeat.
      { actions: ['Query'], partitions: [LIVE_PARTITIONS.registry, LIVE_PARTITIONS.journal] },
      ...CONNECTION_REMOVAL,
    ],
    connections: ['POST', 'DELETE'],
  },
} as const satisfies StreamConsumerDefinition;
