import { defineConfig } from '../../functions/shared/config/define-config';

/** Variables of the local gateway (`npm start`). */
export const GATEWAY_ENV = {
  port: 'PORT',
  authorizerCacheTtl: 'AUTHORIZER_CACHE_TTL',
} as const;

/** The local gateway's settings: the port it listens on, and how long an authorizer answer is reused. */
export const gatewaySettings = defineConfig('local gateway', (env) => ({
  /** 0 picks a free port. */
  port: env.integer(GATEWAY_ENV.port, 3000, { min: 0, max: 65_535 }),
  // API Gateway's own range for the authorizer cache (AuthorizerResultTtlInSeconds: 0 disables it,
  // at most 3600), https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-apigateway-authorizer.html
  authorizerCacheSeconds: env.integer(GATEWAY_ENV.authorizerCacheTtl, 300, { min: 0, max: 3600 }),
}));
