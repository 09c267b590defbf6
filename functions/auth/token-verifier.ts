import { errors, jwtVerify } from 'jose';
import { TOKEN_CLOCK_TOLERANCE_SECONDS } from '../shared/http/caller';
import { ACCEPTED_ALGORITHMS, type AuthConfig } from './auth-config';
import { InvalidTokenError } from './errors';
import { refusalReasonOf } from './token-refusal';

/** What a verified token says: whom it names, and until when it may be used. */
export interface VerifiedToken {
  readonly subject: string;
  /** Its `exp`, in epoch seconds. */
  readonly expires: number;
}

/**
 * Verify a JWT: signature with a pinned algorithm against the issuer's keys, issuer, audience (or,
 * for Cognito access tokens, `token_use` and `client_id`) and expiry, with the clock tolerance the
 * routes apply too ({@link TOKEN_CLOCK_TOLERANCE_SECONDS}).
 */
export async function verifyToken(token: string, config: AuthConfig): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, config.keys, {
      algorithms: [...ACCEPTED_ALGORITHMS],
      issuer: config.issuer,
      ...(config.audience === undefined ? {} : { audience: config.audience }),
      requiredClaims: ['sub', 'exp'],
      clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS,
    });
    if (config.mode === 'cognito') {
      const accessToken = payload.token_use === 'access' && payload.client_id === config.cognitoClientId;
      const idToken = payload.token_use === 'id' && payload.aud === config.cognitoClientId;
      if (!accessToken && !idToken) throw new InvalidTokenError('wrong_audience', 'Token is not for this app client.');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new InvalidTokenError('missing_claim', 'Token has no subject.');
    // jwtVerify checked that the required `exp` is a number; a NumericDate may have a fraction
    // (RFC 7519 section 2), the context carries whole seconds (a fraction less, never more).
    return { subject: payload.sub, expires: Math.min(Math.floor(payload.exp as number), Number.MAX_SAFE_INTEGER) };
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    if (error instanceof errors.JOSEError) throw new InvalidTokenError(refusalReasonOf(error), `${error.code}: ${error.message}`, { cause: error });
    throw error;
  }
}
