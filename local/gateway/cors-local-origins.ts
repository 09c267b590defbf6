import { CORS_ORIGINS_ENV } from '../../functions/shared/http/cors-policy';

/**
 * The origins a local run allows when `CORS_ALLOWED_ORIGINS` is unset: a frontend's dev server on
 * loopback, whatever its port (Vite's 5173, webpack's 8080, …). A local default, so it is set by
 * the local environment and the tests' set-up; the functions themselves have none.
 */
export const LOCAL_CORS_ORIGINS = 'http://localhost:*,http://127.0.0.1:*';

/** Give `env` the local origin list unless it names its own. */
export function useLocalCorsOrigins(env: NodeJS.ProcessEnv = process.env): void {
  if (!env[CORS_ORIGINS_ENV]?.trim()) env[CORS_ORIGINS_ENV] = LOCAL_CORS_ORIGINS;
}
