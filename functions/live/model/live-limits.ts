/**
 * The numbers of the live media log (DESIGN.md 7c), declared once: the product's own limits, and
 * the quotas of API Gateway's WebSocket APIs that the product relies on and the local server
 * enforces the same way.
 */

/** What the product allows. */
export const LIVE_LIMITS = {
  /** A ticket's life, from `POST /media/log/live` to its `$connect`. */
  ticketSeconds: 60,
  /** Subscriptions one connection holds at once. */
  subscriptionsPerConnection: 5,
  /** Open connections of one user at once. */
  connectionsPerUser: 10,
  /**
   * Largest message a client may send to a route. A subscription with the longest url and every
   * filter full fits in a few KB; more is refused with a problem rather than parsed.
   */
  messageBytes: 8 * 1024,
  /** At most one `entry` message per entry and subscription in this long (the latest state). */
  coalesceMs: 1000,
  /** At most this many `entry` messages per subscription per second; beyond, one `overflow` a second. */
  entryMessagesPerSecond: 20,
  /**
   * How soon a subscription holds: the notifiers read the registry once a second, so changes
   * written a second after `subscribed` are pushed (a client fetches its page once that second has
   * passed, for the changes in between).
   */
  subscriptionEffectMs: 1000,
  /** How long a revoked, expired or refused access may still have its connection open, at most. */
  revocationSeconds: 60,
} as const;

/**
 * API Gateway's quotas of a WebSocket API
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-execution-service-websocket-limits-table.html):
 * a message of more than 128 KB, or a frame of more than 32 KB, closes the connection with code
 * 1009; a connection idle for 10 minutes is closed, and so is any connection after 2 hours.
 */
export const WEBSOCKET_QUOTAS = {
  messageBytes: 128 * 1024,
  frameBytes: 32 * 1024,
  idleSeconds: 10 * 60,
  connectionSeconds: 2 * 60 * 60,
  /** The close code of a message or frame over its quota ("Message Too Big", RFC 6455 section 7.4.1). */
  tooBigCloseCode: 1009,
} as const;

/** The stage of the WebSocket API, in its URL (`wss://…/live`) and the `@connections` endpoint's (`https://…/live`). */
export const LIVE_STAGE = 'live';
