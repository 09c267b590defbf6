import { defineConfig } from '../../functions/shared/config/define-config';
import { WEBSOCKET_QUOTAS } from '../../functions/live/model/live-limits';
import { GATEWAY_ENV } from '../gateway/gateway-settings';

/** Variables of the local WebSocket server of the live media log (`npm start`). */
export const LIVE_SERVER_ENV = {
  port: 'LIVE_PORT',
  idleSeconds: 'LIVE_IDLE_SECONDS',
  connectionSeconds: 'LIVE_CONNECTION_SECONDS',
} as const;

/**
 * The local WebSocket server's settings: its port (unset: the gateway's port + 1, so that a
 * `PORT` of its own brings its own live port; 0 picks a free one), and API Gateway's idle and
 * connection time limits, which tests shorten.
 */
export const liveServerSettings = defineConfig('local live server', (env) => {
  // The gateway's own section refuses a bad PORT; here it only moves the default.
  const gatewayPort = /^\d{1,5}$/.test(env.optional(GATEWAY_ENV.port) ?? '') ? Number(env.optional(GATEWAY_ENV.port)) : 3000;
  return {
    port: env.integer(LIVE_SERVER_ENV.port, gatewayPort === 0 ? 0 : Math.min(65_535, gatewayPort + 1), { min: 0, max: 65_535 }),
    idleSeconds: env.integer(LIVE_SERVER_ENV.idleSeconds, WEBSOCKET_QUOTAS.idleSeconds, { min: 1, max: WEBSOCKET_QUOTAS.idleSeconds }),
    connectionSeconds: env.integer(LIVE_SERVER_ENV.connectionSeconds, WEBSOCKET_QUOTAS.connectionSeconds, { min: 1, max: WEBSOCKET_QUOTAS.connectionSeconds }),
  };
});
