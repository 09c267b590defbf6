import { errors, jwtVerify } from 'jose';
import { ACCEPTED_ALGORITHMS, type AuthConfig } from './auth-config';
import { InvalidTokenError } from './errors';
import { refusalReasonOf } from './token-refusal';

/** Tolerance for clocks that disagree by a little, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 5;

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
