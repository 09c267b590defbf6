import { AVATAR_ENV } from '../functions/avatars/avatar-config';
import { CLIENT_ENV } from '../functions/shared/config/data-config';
import { CURSOR_SECRET_ENV } from '../functions/shared/listing/cursor-config';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../functions/shared/observability/metric-catalog';
import { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import { resourceId, tables } from '../functions/shared/tables/index';
import { useLocalCorsOrigins } from './gateway/cors-local-origins';
import { FOLD_ENV } from '../functions/media-log/fold/fold-config';
import { LIVE_ENV } from '../functions/live/live-config';
import { LIVE_STAGE } from '../functions/live/model/live-limits';
import { liveServerSettings } from './live/live-settings';

/**
 * What a local run gives the functions where the environment does not: in AWS the stack sets every
 * one of these; the functions themselves have no defaults for them. Only for local back-ends: an
 * operator working on deployed tables names every table, so no local name can reach them.
 */

/** The region of the SDK clients when none is set. */
export const LOCAL_REGION = 'us-east-1';

/**
 * Signs the cursors of local runs. Public, so it protects nothing: a deployment has its own per-stack
 * secret (lib/constructs/cursor-signing-key.ts), and a function without one does not start.
 */
export const LOCAL_CURSOR_SECRET = 'local-development-cursor-key-not-for-deployments';

/** Set `name` in `env` unless it is set already. */
function setDefault(env: NodeJS.ProcessEnv, name: string, value: string): void {
  if (!env[name]?.trim()) env[name] = value;
}

/**
 * The local defaults: region, table and bucket names (their definitions' resource ids), the cursor key, the
 * service's log and metric names (metrics off), the browser origins of dev servers, the live media
 * log's local WebSocket URLs, and, once the local S3 is known, where avatars are served.
 */
export function applyLocalDefaults(env: NodeJS.ProcessEnv = process.env, s3Endpoint?: string): void {
  setDefault(env, CLIENT_ENV.region, LOCAL_REGION);
  for (const table of tables) setDefault(env, table.nameEnv, resourceId(table));
  setDefault(env, avatarBucket.nameEnv, avatarBucket.id);
  setDefault(env, CURSOR_SECRET_ENV, LOCAL_CURSOR_SECRET);
  // Logs and metrics named as in AWS; metric lines only when asked for (POWERTOOLS_METRICS_DISABLED=false).
  setDefault(env, 'POWERTOOLS_SERVICE_NAME', SERVICE_NAME);
  setDefault(env, 'POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE);
  setDefault(env, 'POWERTOOLS_METRICS_DISABLED', 'true');
  useLocalCorsOrigins(env);
  // DynamoDB Local serializes writes: a fold with more counter writes in flight only queues them.
  setDefault(env, FOLD_ENV.writesInFlight, '8');
  // The live media log's WebSocket server of `npm start` (local/live/): where tickets point and
  // where the functions reach its @connections endpoint. A free port (0) is known once it listens.
  const live = liveServerSettings.read(env);
  if (live.ok && live.value.port !== 0) {
    setDefault(env, LIVE_ENV.websocketUrl, `ws://127.0.0.1:${live.value.port}/${LIVE_STAGE}`);
    setDefault(env, LIVE_ENV.connectionsEndpoint, `http://127.0.0.1:${live.value.port}/${LIVE_STAGE}`);
  }
  // The local S3 serves objects by path: `<endpoint>/<bucket>/<key>`, fetchable with a plain GET.
  if (s3Endpoint !== undefined) setDefault(env, AVATAR_ENV.publicBaseUrl, `${s3Endpoint.replace(/\/+$/, '')}/${env[avatarBucket.nameEnv]}`);
}

/** A copy of `env` with the local defaults where it has none: what the functions will read once the local environment is in place. */
export function withLocalDefaults(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  applyLocalDefaults(copy);
  return copy;
}
