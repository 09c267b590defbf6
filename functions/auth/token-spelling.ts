/**
 * The one spelling of a bearer token that is accepted. The WAF's per-token rule and API Gateway's
 * authorizer cache key on the `Authorization` header as sent (lib/constructs/api-firewall.ts,
 * lib/constructs/auth.ts): if a token could be written several ways, one token would be several
 * clients to both, and every new spelling a cache miss that costs an authorizer run (DESIGN 3). So
 * both the header and the token must be spelled canonically, and anything else is refused with the
 * same 401 as any bad token, before any signature check or lookup.
 */

/**
 * The header: `Bearer`, one space, the token (RFC 6750's b64token), nothing before or after. RFC
 * 9110 lets a client vary the scheme's case and the spaces; here any such variant is a 401.
 */
const CANONICAL_BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/**
 * A JWS in compact serialization: three base64url segments (RFC 7515 section 7.1), never padded.
 * A segment may be empty (an unsecured JWS has no signature), so that such a token is refused for
 * its algorithm, the reason it is logged with.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** The bearer token of an `Authorization` header value in its canonical spelling, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = CANONICAL_BEARER.exec(authorization ?? '');
  return match ? (match[1] as string) : null;
}

/**
 * Whether `token` is a compact JWS spelled canonically: unpadded base64url segments, each equal to
 * its own re-encoding. jose decodes leniently (padding accepted, the unused low bits of a segment's
 * last character ignored), so without this an RS256 or ES256 token could be written 32 ways (16
 * values of the 4 unused bits of its signature's last character, padded or not) that all verify.
 */
export function isCanonicalToken(token: string): boolean {
  return COMPACT_JWS.test(token) && token.split('.').every((segment) => Buffer.from(segment, 'base64url').toString('base64url') === segment);
}
