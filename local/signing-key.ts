import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { LOCAL_TOKEN_AUDIENCE, LOCAL_TOKEN_ISSUER } from '../functions/auth/auth-config';

/** The local signing key: the private JWK (for minting) and the public JWKS file the authorizer reads. */
export interface LocalSigningKey {
  readonly privateJwk: JWK;
  readonly kid: string;
  /** Path of the public JWKS; `AUTH_JWKS_FILE` points here. */
  readonly jwksFile: string;
}

const ALGORITHM = 'RS256';

/** Where the key files live under a data directory. */
export function signingKeyPaths(dataDir: string) {
  const folder = join(dataDir, 'signing');
  return { folder, privateFile: join(folder, 'private.jwk.json'), jwksFile: join(folder, 'jwks.json') };
}

/**
 * The data directory's signing key, generated once (RS256, like the identity providers the
 * deployed authorizer trusts) and kept, so tokens stay valid across restarts.
 */
export async function ensureSigningKey(dataDir: string): Promise<LocalSigningKey> {
  const paths = signingKeyPaths(dataDir);
  try {
    const privateJwk = JSON.parse(await readFile(paths.privateFile, 'utf8')) as JWK;
    return { privateJwk, kid: privateJwk.kid as string, jwksFile: paths.jwksFile };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const kid = randomUUID();
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM, use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
  await mkdir(paths.folder, { recursive: true, mode: 0o700 });
  await writeFile(paths.privateFile, JSON.stringify(privateJwk), { mode: 0o600 });
  await chmod(paths.privateFile, 0o600);
  await writeFile(paths.jwksFile, JSON.stringify({ keys: [publicJwk] }));
  return { privateJwk, kid, jwksFile: paths.jwksFile };
}

/** Mint a bearer token for `subject` with the local key, valid for `ttlSeconds`. */
export async function mintLocalToken(key: LocalSigningKey, subject: string, ttlSeconds = 3600): Promise<string> {
  const privateKey = await importJWK(key.privateJwk, ALGORITHM);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(LOCAL_TOKEN_ISSUER)
    .setAudience(LOCAL_TOKEN_AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(privateKey);
}
