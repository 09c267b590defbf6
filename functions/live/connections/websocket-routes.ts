import type { WebSocketRouteDefinition } from '../../shared/deployment/function-definitions';
import { CALLER_PROFILE_READ, USER_DIRECTORY_READS } from '../../shared/deployment/users-table-access';
import { LIVE_PARTITIONS } from '../model/live-keys';

/**
 * The routes of the live media log's WebSocket API (DESIGN.md 7c), one function each: the stack
 * deploys them behind its WebSocket API, the local WebSocket server routes to them, `invoke` lists
 * and runs them. Messages are routed by their `action` (`$request.body.action`); any other
 * message, JSON or not, reaches `$default`.
 */

/** A connection's registry item, read and revised with its journal item in one transaction. */
const CONNECTION_REVISION = [
  { actions: ['GetItem'], partitions: [LIVE_PARTITIONS.registry] },
  { actions: ['UpdateItem'], partitions: [LIVE_PARTITIONS.registry], inTransaction: true },
  { actions: ['PutItem'], partitions: [LIVE_PARTITIONS.journal], inTransaction: true },
] as const;

/** Removing a connection: its item (returned), its place in its user's list, and its journal item. */
export const CONNECTION_REMOVAL = [
  { actions: ['DeleteItem'], partitions: [LIVE_PARTITIONS.registry], returnValues: ['ALL_OLD'] },
  { actions: ['UpdateItem'], partitions: [LIVE_PARTITIONS.users] },
  { actions: ['PutItem'], partitions: [LIVE_PARTITIONS.journal] },
] as const;

/** `$connect`: takes the ticket, checks the page's origin, registers the connection. */
export const liveConnectRoute = {
  name: 'liveConnect',
  handler: 'functions/live/connections/connect-live.ts',
  description: 'the live media log, $connect: takes the ticket, checks the Origin and registers the connection',
  routeKey: '$connect',
  answersClient: false,
  grants: {
    users: [CALLER_PROFILE_READ, USER_DIRECTORY_READS],
    liveConnections: [
      { actions: ['DeleteItem'], partitions: [LIVE_PARTITIONS.tickets], returnValues: ['ALL_OLD'] },
      { actions: ['GetItem'], partitions: [LIVE_PARTITIONS.users] },
      { actions: ['UpdateItem'], partitions: [LIVE_PARTITIONS.users], inTransaction: true },
      { actions: ['PutItem'], partitions: [LIVE_PARTITIONS.registry], inTransaction: true },
    ],
    // At the per-user limit, whether the connections the list holds are still open.
    connections: ['GET'],
  },
} as const satisfies WebSocketRouteDefinition;

/** `$disconnect`: forgets the connection. */
export const liveDisconnectRoute = {
  name: 'liveDisconnect',
  handler: 'functions/live/connections/disconnect-live.ts',
  description: 'the live media log, $disconnect: removes the connection from the registry',
  routeKey: '$disconnect',
  answersClient: false,
  grants: { liveConnections: CONNECTION_REMOVAL },
} as const satisfies WebSocketRouteDefinition;

/** `subscribe`: adds a subscription with the filter of GET /media/log. */
export const liveSubscribeRoute = {
  name: 'liveSubscribe',
  handler: 'functions/live/connections/subscribe-live.ts',
  description: 'the live media log, subscribe: adds a subscription to the connection',
  routeKey: 'subscribe',
  answersClient: true,
  grants: { liveConnections: CONNECTION_REVISION },
} as const satisfies WebSocketRouteDefinition;

/** `unsubscribe`: ends a subscription. */
export const liveUnsubscribeRoute = {
  name: 'liveUnsubscribe',
  handler: 'functions/live/connections/unsubscribe-live.ts',
  description: 'the live media log, unsubscribe: ends a subscription of the connection',
  routeKey: 'unsubscribe',
  answersClient: true,
  grants: { liveConnections: CONNECTION_REVISION },
} as const satisfies WebSocketRouteDefinition;

/** `$default`: any other message, answered with an error that says what the WebSocket takes. */
export const liveDefaultRoute = {
  name: 'liveDefault',
  handler: 'functions/live/connections/default-live.ts',
  description: 'the live media log, $default: answers a message of no known action with an error',
  routeKey: '$default',
  answersClient: true,
  grants: {},
} as const satisfies WebSocketRouteDefinition;

/** Every route of the WebSocket API. */
export const webSocketRoutes: readonly WebSocketRouteDefinition[] = [liveConnectRoute, liveDisconnectRoute, liveSubscribeRoute, liveUnsubscribeRoute, liveDefaultRoute];
