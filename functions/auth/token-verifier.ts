import { errors, jwtVerify } from 'jose';
import { ACCEPTED_ALGORITHMS, type AuthConfig } from './auth-config';
import { InvalidTokenError } from './errors';
import { refusalReasonOf } from './token-refusal';

/** Tolerance for clocks that disagree by a little, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The one spelling of a bearer header that is accepted: `Bearer`, one space, the token (RFC 6750's
 * b64token), nothing before or after. RFC 9110 lets a client vary the scheme's case and the spaces,
 * but the WAF's per-token rule and API Gateway's authorizer cache key on the header as sent: if each
 * spelling were accepted, one token would be many clients to both, and every new spelling a cache
 * miss that costs an authorizer run and a subject lookup (DESIGN 3). Any other spelling is a 401.
 */
const CANONICAL_BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/** The bearer token of an `Authorization` header value in its canonical spelling, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = CANONICAL_BEARER.exec(authorization ?? '');
  return match ? (match[1] as string) : null;
}

/**
 * Verify a JWT: signature with a pinned algorithm against the issuer's keys, issuer, audience (or,
 * for Cognito access tokens, `token_use` and `client_id`) and expiry. Returns the subject.
 */
export async function verifyToken(token: string, config: AuthConfig): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, config.keys, {
      algorithms: [...ACCEPTED_ALGORITHMS],
      issuer: config.issuer,
      ...(config.audience === undefined ? {} : { audience: config.audience }),
      requiredClaims: ['sub', 'exp'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    if (config.mode === 'cognito') {
      const accessToken = payload.token_use === 'access' && payload.client_id === config.cognitoClientId;
      const idToken = payload.token_use === 'id' && payload.aud === config.cognitoClientId;
      if (!accessToken && !idToken) throw new InvalidTokenError('wrong_audience', 'Token is not for this app client.');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new InvalidTokenError('missing_claim', 'Token has no subject.');
    return payload.sub;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    if (error instanceof errors.JOSEError) throw new InvalidTokenError(refusalReasonOf(error), `${error.code}: ${error.message}`, { cause: error });
    throw error;
  }
}
