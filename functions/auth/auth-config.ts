import { readFileSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, errors, type JWTVerifyGetKey, type RemoteJWKSetOptions } from 'jose';
import { defineConfig } from '../shared/config/define-config';
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

/** Variables of the token verification. */
export const AUTH_ENV = {
  issuer: 'AUTH_ISSUER',
  audience: 'AUTH_AUDIENCE',
  jwksUrl: 'AUTH_JWKS_URL',
  cognitoClientId: 'AUTH_COGNITO_CLIENT_ID',
  jwksCooldownMs: 'AUTH_JWKS_COOLDOWN_MS',
  jwksFile: 'AUTH_JWKS_FILE',
} as const;

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
 * The issuer's remote key set, made on its first use. jose makes a `Headers` object when it makes
 * the set, and the first `Headers` of a process loads Node's fetch (undici): about 27 ms of the
 * authorizer's cold start, for a set that no init uses. The first token needs it, and pays for it
 * then, as it pays for the key set's first fetch.
 */
function remoteKeysOnFirstUse(url: URL, options: RemoteJWKSetOptions): JWTVerifyGetKey {
  let keys: JWTVerifyGetKey | undefined;
  return (header, token) => {
    keys ??= createRemoteJWKSet(url, options);
    return keys(header, token);
  };
}

/**
 * The verification set-up, read once:
 * - `AUTH_ISSUER` + `AUTH_JWKS_URL` (+ `AUTH_AUDIENCE` or `AUTH_COGNITO_CLIENT_ID`): an external
 *   issuer; its JWKS is fetched over HTTP(S), cached, and fetched again (at most every
 *   `AUTH_JWKS_COOLDOWN_MS`, default 30 s) when a token names an unknown key id;
 * - otherwise `AUTH_JWKS_FILE`: the public JWKS of the local signing key.
 */
export const authConfig = /* @__PURE__ */ defineConfig('auth', (env): AuthConfig => {
  const issuer = env.optional(AUTH_ENV.issuer);
  const jwksUrl = env.optional(AUTH_ENV.jwksUrl);
  if (issuer !== undefined && jwksUrl !== undefined) {
    // Re-fetching on an unknown key id is what makes key rotation work; the cool-down keeps a flood
    // of forged key ids from turning into a flood of JWKS requests.
    const cooldownDuration = env.integer(AUTH_ENV.jwksCooldownMs, 30_000, { min: 0, max: 3_600_000 });
    const keys = failingOnOutage(remoteKeysOnFirstUse(new URL(jwksUrl), { cooldownDuration, cacheMaxAge: 600_000, timeoutDuration: 5_000 }));
    const cognitoClientId = env.optional(AUTH_ENV.cognitoClientId);
    if (cognitoClientId !== undefined) return { mode: 'cognito', issuer, cognitoClientId, keys };
    return { mode: 'external', issuer, audience: env.required(AUTH_ENV.audience), keys };
  }
  const file = env.required(AUTH_ENV.jwksFile);
  const jwks = file === '' ? { keys: [] } : JSON.parse(readFileSync(file, 'utf8'));
  return { mode: 'local', issuer: LOCAL_TOKEN_ISSUER, audience: LOCAL_TOKEN_AUDIENCE, keys: createLocalJWKSet(jwks) };
});
