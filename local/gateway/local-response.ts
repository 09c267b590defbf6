import type { GatewayFacts } from './access-log';

/**
 * What the local gateway answers: the dispatcher's answers (a route's, a gateway response's) and
 * the documentation page's alike, so neither needs the other's module.
 */

/** What the gateway answers: status, single and multi-value headers, and the body bytes. */
export interface LocalResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly multiValueHeaders: Record<string, string[]>;
  readonly body: Buffer;
  /** What the gateway learnt while answering, for its access log. */
  readonly facts?: GatewayFacts;
}
