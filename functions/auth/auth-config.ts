import { readFileSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { IdentityProviderUnavailableError } from './errors';

/** Issuer and audience of the tokens the local signing key mints (`npm run cli -- token`). */
export const LOCAL_TOKEN_ISSUER = 'urn:frontend-api:local';
/** Audience of locally minted tokens. */
export const LOCAL_TOKEN_AUDIENCE = 'frontend-api';
/** The only signature algorithm accepted: pinned, so `none` and HS256-with-the-public-key fail. */
export const ACCEPTED_ALGORITHMS = ['RS256'] as const;

/** How tokens are verified in this environment. */
export interface AuthConfig {
  /** `local`: the data directory's signing key; `external`: an OIDC issuer; `cognito`: a Cognito user pool. */
  readonly mode: 'local' | 'external' | 'cognito';
  readonly issuer: string;
  /** Expected `aud` (ID tokens, external issuers); undefined for Cognito access tokens. */
  readonly audience?: string;
  /** Expected `client_id` of Cognito access tokens. */
  readonly cognitoClientId?: string;
  readonly keys: JWTVerifyGetKey;
}

/**
 * What a key lookup can refuse because of the token itself: an algorithm no key set serves, or a
 * key id the issuer's set does not hold (once fetched again, within the cool-down).
 */
const TOKEN_FAULTS = [errors.JOSENotSupported, errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys] as const;

/**
 * The key lookup of a remote JWKS, its failures sorted: a fault of the token is rethrown as is
 * (jose turns it into a refused token), anything else (a timeout, a refused connection, an answer
 * that is not 200, not JSON or not a key set) means the issuer cannot be asked and becomes an
 * {@link IdentityProviderUnavailableError}: a 503, never a 401 that would send every client to
 * sign in again while its token is fine.
 */
export function failingOnOutage(keys: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      if (TOKEN_FAULTS.some((fault) => error instanceof fault)) throw error;
      const reason = error instanceof errors.JOSEError ? `${error.code}: ${error.message}` : String(error);
      throw new IdentityProviderUnavailableError(`The issuer's key set could not be fetched (${reason}).`, { cause: error });
    }
  };
}

/**
 * Read the verification set-up from the environment:
 * - `AUTH_ISSUER` + `AUTH_JWKS_URL` (+ `AUTH_AUDIENCE` or `AUTH_COGNITO_CLIENT_ID`): an external
 *   issuer; its JWKS is fetched over HTTP(S), cached, and fetched again (at most every
 *   `AUTH_JWKS_COOLDOWN_MS`, default 30 s) when a token names an unknown key id;
 * - otherwise `AUTH_JWKS_FILE`: the public JWKS of the local signing key.
 */
export function authConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  if (env.AUTH_ISSUER && env.AUTH_JWKS_URL) {
    // Re-fetching on an unknown key id is what makes key rotation work; the cool-down keeps a flood
    // of forged key ids from turning into a flood of JWKS requests.
    const cooldownDuration = Number(env.AUTH_JWKS_COOLDOWN_MS ?? 30_000);
    const keys = failingOnOutage(createRemoteJWKSet(new URL(env.AUTH_JWKS_URL), { cooldownDuration, cacheMaxAge: 600_000, timeoutDuration: 5_000 }));
    if (env.AUTH_COGNITO_CLIENT_ID) {
      return { mode: 'cognito', issuer: env.AUTH_ISSUER, cognitoClientId: env.AUTH_COGNITO_CLIENT_ID, keys };
    }
    if (!env.AUTH_AUDIENCE) throw new Error('AUTH_AUDIENCE is required with AUTH_ISSUER.');
    return { mode: 'external', issuer: env.AUTH_ISSUER, audience: env.AUTH_AUDIENCE, keys };
  }
  if (!env.AUTH_JWKS_FILE) throw new Error('Set AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL, or AUTH_JWKS_FILE for the local signing key.');
  const jwks = JSON.parse(readFileSync(env.AUTH_JWKS_FILE, 'utf8'));
  return { mode: 'local', issuer: LOCAL_TOKEN_ISSUER, audience: LOCAL_TOKEN_AUDIENCE, keys: createLocalJWKSet(jwks) };
}
