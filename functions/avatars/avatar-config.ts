import { defineConfig } from '../shared/config/define-config';
import { parseAllowHosts, type FetchLimits } from './fetch/fetch-settings';

/** Variables of the avatar configuration. */
export const AVATAR_ENV = {
  publicBaseUrl: 'AVATAR_PUBLIC_BASE_URL',
  maxPerUser: 'AVATAR_MAX_PER_USER',
  maxBytes: 'AVATAR_MAX_BYTES',
  maxPixels: 'AVATAR_MAX_PIXELS',
  connectTimeoutMs: 'AVATAR_FETCH_CONNECT_TIMEOUT_MS',
  totalTimeoutMs: 'AVATAR_FETCH_TIMEOUT_MS',
  allowHosts: 'AVATAR_FETCH_ALLOW_HOSTS',
} as const;

/** Product defaults of the avatar limits (DESIGN.md section 6), which a deployment may change. */
export const AVATAR_DEFAULTS = {
  maxPerUser: 20,
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  connectTimeoutMs: 3000,
  totalTimeoutMs: 10_000,
} as const;

/** The avatar configuration. */
export interface AvatarConfig {
  /** Base of every avatar URL: the CloudFront distribution in AWS, the local S3 bucket locally. */
  readonly publicBaseUrl: string;
  /** Most avatars a user holds: an upload beyond it replaces the oldest disabled one. */
  readonly maxPerUser: number;
  /** The limits of the image fetch (its byte cap is also that of an uploaded file). */
  readonly fetch: FetchLimits;
  /** Largest width × height of a source image. */
  readonly maxPixels: number;
}

/** The avatar section: where avatars are served, and the limits of uploads. */
export const avatarConfig = /* @__PURE__ */ defineConfig('avatars', (env): AvatarConfig => {
  const publicBaseUrl = env.required(AVATAR_ENV.publicBaseUrl);
  if (publicBaseUrl !== '' && !URL.canParse(publicBaseUrl)) env.problem(`${AVATAR_ENV.publicBaseUrl} must be an absolute URL`);
  let allowHosts: ReadonlySet<string> = new Set();
  try {
    allowHosts = parseAllowHosts(env.list(AVATAR_ENV.allowHosts));
  } catch (error) {
    env.problem((error as Error).message);
  }
  return {
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    maxPerUser: env.integer(AVATAR_ENV.maxPerUser, AVATAR_DEFAULTS.maxPerUser, { min: 2, max: 100 }),
    fetch: {
      allowHosts,
      maxBytes: env.integer(AVATAR_ENV.maxBytes, AVATAR_DEFAULTS.maxBytes, { min: 1, max: 100 * 1024 * 1024 }),
      connectTimeoutMs: env.integer(AVATAR_ENV.connectTimeoutMs, AVATAR_DEFAULTS.connectTimeoutMs, { min: 100, max: 20_000 }),
      totalTimeoutMs: env.integer(AVATAR_ENV.totalTimeoutMs, AVATAR_DEFAULTS.totalTimeoutMs, { min: 100, max: 25_000 }),
    },
    maxPixels: env.integer(AVATAR_ENV.maxPixels, AVATAR_DEFAULTS.maxPixels, { min: 1, max: 268_402_689 }),
  };
});
