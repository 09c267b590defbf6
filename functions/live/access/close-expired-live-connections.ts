import middy from '@middy/core';
import { dataConfig } from '../../shared/config/data-config';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { liveConnectionsConfig } from '../live-config';
import { liveAccessKeeper, liveRegistry } from '../live-composition';
import { EXPIRY_SWEEP_PERIOD_MS } from './access-functions';
import { expiryPlan } from './expiry-plan';

dataConfig();
liveConnectionsConfig();

/** What a sweep did. */
interface SweepReport {
  readonly connections: number;
  readonly closed: number;
}

/**
 * Reads the registry, closes the connections whose token has expired (or that API Gateway ended
 * without a `$disconnect`), then waits for those whose token expires before the next sweep and
 * closes each when it does: a token's connection outlives it by moments, not by a minute.
 */
async function sweep(): Promise<SweepReport> {
  const start = Date.now();
  const connections = await liveRegistry().everything();
  const plan = expiryPlan(connections, start, EXPIRY_SWEEP_PERIOD_MS);
  let closed = await liveAccessKeeper().closeAll(plan.now, start);
  for (const { connectionId, atMs } of plan.later) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - Date.now())));
    closed += await liveAccessKeeper().closeAll([connectionId]);
  }
  if (closed > 0) logger.info('Expired live connections closed', { connections: connections.length, closed });
  return { connections: connections.length, closed };
}

/** Scheduled every minute: the live connections end with their tokens. */
export const handler = middy<unknown, SweepReport>(sweep, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<unknown, SweepReport>(() => ({})));
