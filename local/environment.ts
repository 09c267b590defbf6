import { AUTH_ENV } from '../functions/auth/auth-config';
import { resetClients } from '../functions/shared/aws/clients';
import { CLIENT_ENV } from '../functions/shared/config/data-config';
import { resetConfiguration } from '../functions/shared/config/define-config';
import { resetEveryLazy } from '../functions/shared/lazy';
import { applyLocalDefaults } from './local-defaults';
import { dataDirSetting } from './local-settings';
import { ensureSigningKey, type LocalSigningKey } from './signing-key';

// The SDK warns that its 2027 releases need Node 22; local tools run on the Node 20 the project
// supports, while the deployed functions run on the newest Lambda runtime. Said once in
// CONTRIBUTING.md, "Dependencies", not on every command.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * Forget the functions' configuration, clients and services, so that their next use reads the
 * environment anew: for tools and tests that switch one process between back-ends (a deployed
 * function reads its configuration once, at cold start).
 */
export function resetServiceState(): void {
  resetConfiguration();
  resetClients();
  resetEveryLazy();
}

/** Where local state lives: `DATA_DIR`, default `.local` in the working directory. */
export function localDataDir(): string {
  return dataDirSetting();
}

/** Whether tokens come from an external issuer (`AUTH_ISSUER` + `AUTH_JWKS_URL`) instead of the local key. */
export function usesExternalIssuer(): boolean {
  return Boolean(process.env[AUTH_ENV.issuer]?.trim() && process.env[AUTH_ENV.jwksUrl]?.trim());
}

/** Endpoints of the local back-ends a process runs against. */
export interface BackendEndpoints {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
}

/**
 * Point this process's functions at local back-ends and the data directory's signing key (unless
 * an external issuer is configured), with the local defaults of everything else, the way the
 * stack's environment points them at AWS.
 */
export async function useLocalEnvironment(dataDir: string, endpoints: BackendEndpoints): Promise<LocalSigningKey | null> {
  process.env[CLIENT_ENV.dynamodbEndpoint] = endpoints.dynamodbEndpoint;
  process.env[CLIENT_ENV.s3Endpoint] = endpoints.s3Endpoint;
  applyLocalDefaults(process.env, endpoints.s3Endpoint);
  resetServiceState();
  if (usesExternalIssuer()) return null;
  const key = await ensureSigningKey(dataDir);
  process.env[AUTH_ENV.jwksFile] = key.jwksFile;
  return key;
}
