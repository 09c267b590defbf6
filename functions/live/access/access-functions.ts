import type { ScheduledFunctionDefinition, StreamConsumerDefinition } from '../../shared/deployment/function-definitions';
import { USER_DIRECTORY_READS } from '../../shared/deployment/users-table-access';
import { USER_KEY_PREFIX } from '../../shared/tables/users-keys';
import { CONNECTION_REMOVAL } from '../connections/websocket-routes';
import { LIVE_PARTITIONS } from '../model/live-keys';

/**
 * Revocation (DESIGN.md 7c): a consumer of the users table's stream that closes the live
 * connections of a user whose status or role changed, who moved or was deleted, whichever path
 * made the change (the CLI, a route, the console), and gives connections whose scope changed their
 * new scope. A second per shard at most: the stream of a table that changes rarely.
 */
export const reviseLiveAccessFunction = {
  name: 'reviseLiveAccess',
  handler: 'functions/live/access/revise-live-access.ts',
  description: 'the live media log: closes the connections of users who lost access, and rescopes those whose family or the root users changed',
  table: 'Users',
  // The user partitions of the users table: profiles are the only items whose changes matter here.
  keyPrefixes: [USER_KEY_PREFIX],
  batchSize: 100,
  maxBatchingWindowSeconds: 0,
  tumblingWindowSeconds: 900,
  timeoutSeconds: 60,
  // Retried for as long as a revocation is worth retrying; then the failure queue says which.
  maximumRecordAgeSeconds: 3600,
  failureQueue: 'LiveAccessFailures',
  failureAdvice: "Connections of users who lost access may still be open until their two hours are over: fix the cause, then close them by hand (the users' connections are the USER#<id> / CONNECTIONS items of the live connections table).",
  grants: {
    users: [USER_DIRECTORY_READS],
    liveConnections: [
      { actions: ['GetItem'], partitions: [LIVE_PARTITIONS.users, LIVE_PARTITIONS.registry] },
      { actions: ['Query'], partitions: [LIVE_PARTITIONS.registry] },
      { actions: ['UpdateItem'], partitions: [LIVE_PARTITIONS.registry], inTransaction: true },
      ...CONNECTION_REMOVAL,
    ],
    connections: ['DELETE'],
  },
} as const satisfies StreamConsumerDefinition;

/**
 * Expiry (DESIGN.md 7c): every minute, the connections whose token has expired close, and those
 * whose token expires within the minute close when it does.
 */
export const closeExpiredLiveConnectionsFunction = {
  name: 'closeExpiredLiveConnections',
  handler: 'functions/live/access/close-expired-live-connections.ts',
  description: 'the live media log: closes each connection when the token that opened it expires',
  schedule: 'rate(1 minute)',
  grants: {
    liveConnections: [{ actions: ['Query'], partitions: [LIVE_PARTITIONS.registry] }, ...CONNECTION_REMOVAL],
    connections: ['DELETE'],
  },
} as const satisfies ScheduledFunctionDefinition;

/** The sweep's horizon: its period (`rate(1 minute)`). */
export const EXPIRY_SWEEP_PERIOD_MS = 60_000;
