import { CORS_EXPOSED_HEADERS, gatewayAnswerOrigin, parseCorsOrigins } from '../functions/shared/http/cors-policy';

/**
 * The CORS headers of the answers the edge gives by itself (API Gateway's gateway responses, the
 * firewall's 429), as plain values. Such answers are fixed texts: they can name one origin (or `*`),
 * or, where the service can map request headers (API Gateway), echo the request's origin.
 */

/** The CORS headers of an edge answer; `allowOrigin` fixed, or `echo` for the request's origin. */
export interface EdgeCorsHeaders {
  readonly allowOrigin: { readonly kind: 'fixed'; readonly value: string } | { readonly kind: 'echo' };
  /** The other headers, whatever the origin. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The CORS headers of an edge answer for the stack's `corsOrigins`; none without origins. */
export function edgeCorsHeaders(corsOrigins: readonly string[]): EdgeCorsHeaders | undefined {
  const allowOrigin = gatewayAnswerOrigin(parseCorsOrigins(corsOrigins.join(',')));
  if (allowOrigin === undefined) return undefined;
  return { allowOrigin, headers: { 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '), Vary: 'Origin' } };
}
