import type { Node } from 'constructs';
import { MAX_RETENTION_DAYS } from '../functions/media-log/model/retention';
import { booleanSetting, httpsUrl, integerSetting, InvalidSettingError, listSetting, stringSetting, type ContextReader } from './context-values';

export { InvalidSettingError } from './context-values';

/**
 * Deployment settings, read once from CDK context (`cdk.json` or `cdk deploy -c key=value`) and
 * validated before any resource is defined, so a typo fails the synth instead of the deploy.
 */

/** An external OpenID Connect issuer the authorizer trusts instead of the stack's Cognito pool. */
export interface ExternalIssuerSettings {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
}

/** Every setting the stack takes, with its default applied. */
export interface StackSettings {
  /** DynamoDB tables and the Cognito pool refuse deletion while this is on. */
  readonly deletionProtection: boolean;
  /** Retention of every log group the stack creates. */
  readonly logRetentionDays: number;
  /** Steady-state requests per second the stage admits before answering 429. */
  readonly apiRateLimit: number;
  /** Burst of requests the stage admits above the steady rate. */
  readonly apiBurstLimit: number;
  /** Browser origins allowed by CORS; empty means no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** Seconds API Gateway reuses an authorizer answer for the same token; 0 disables the cache. */
  readonly authorizerCacheSeconds: number;
  /** The external issuer, or `undefined` to create a Cognito user pool. */
  readonly externalIssuer?: ExternalIssuerSettings;
  /** Address subscribed to the alarm topic; without it the alarms have no notification target. */
  readonly alarmEmail?: string;
  /** Powertools log level of every function. */
  readonly logLevel: LogLevel;
  /**
   * X-Ray active tracing of the stage and every function, each AWS SDK call a subsegment. Off by
   * default: the X-Ray SDK is about 120 KB of every bundle and is loaded at every cold start, so a
   * bundle built without tracing leaves it out (lib/function-bundling.ts).
   */
  readonly tracing: boolean;
  /**
   * AWS accounts (12-digit ids) allowed to send to the media pipeline feed queue by its resource
   * policy; empty: only principals of this account that an IAM policy allows.
   */
  readonly feedProducerAccounts: readonly string[];
  /** Per-client limits and concurrency caps, so that no client or route can starve the others. */
  readonly capacity: CapacitySettings;
  /** Generation of the secret that seals list cursors: a new one replaces it (rotation). */
  readonly cursorKeyGeneration: number;
  /**
   * Days the media log keeps an entry (and its counters), removed by DynamoDB's TTL; 0 keeps
   * everything (functions/media-log/model/retention.ts).
   */
  readonly mediaLogRetentionDays: number;
}

/** How much of the API one client, and how much of the account's Lambda concurrency one route, may take. */
export interface CapacitySettings {
  /** Requests one source IP address may send per minute before WAF answers 429. */
  readonly ipRateLimit: number;
  /** Requests one bearer token (Authorization header) may send per minute before WAF answers 429. */
  readonly tokenRateLimit: number;
  /** Concurrent executions reserved for the authorizer (always available to it, never more). */
  readonly authorizerConcurrency: number;
  /** Concurrent executions of each image route at most (reserved for it, never more). */
  readonly imageRouteConcurrency: number;
}

/** Log levels Powertools logger accepts. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Context keys the stack reads, with their defaults; the deploy docs render this table. */
export const SETTINGS_DEFAULTS = {
  deletionProtection: true,
  logRetentionDays: 30,
  apiRateLimit: 50,
  apiBurstLimit: 100,
  authorizerCacheSeconds: 300,
  logLevel: 'INFO',
  tracing: false,
  authorizerConcurrency: 10,
  imageRouteConcurrency: 10,
  cursorKeyGeneration: 1,
  mediaLogRetentionDays: 0,
} as const;

/**
 * Default per-client limits, per minute, as shares of the stage's steady rate: one address may
 * take a fifth of it, one token a tenth (at least WAF's minimum of 10 per window).
 */
export const CLIENT_SHARES = { ip: 5, token: 10 } as const;

/** WAF's bounds of a rate-based rule's limit, per evaluation window. */
const WAF_RATE_LIMIT_BOUNDS = { min: 10, max: 2_000_000_000 } as const;

/** Retention periods CloudWatch Logs accepts, in days. */
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

function corsOrigins(read: ContextReader): string[] {
  const origins = listSetting(read, 'corsOrigins');
  for (const origin of origins) {
    if (origin === '*') continue;
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    // An origin is scheme://host[:port] exactly; a path or trailing slash never matches a browser's Origin header.
    if (!url || url.origin !== origin) throw new InvalidSettingError('corsOrigins', 'a comma-separated list of origins like https://app.example.com, or *', origin);
  }
  if (origins.includes('*') && origins.length > 1) {
    throw new InvalidSettingError('corsOrigins', 'either * alone or a list of origins', origins.join(','));
  }
  return origins;
}

function externalIssuer(read: ContextReader): ExternalIssuerSettings | undefined {
  const issuer = stringSetting(read, 'authIssuer');
  const audience = stringSetting(read, 'authAudience');
  const jwksUrl = stringSetting(read, 'authJwksUrl');
  if (issuer === undefined && audience === undefined && jwksUrl === undefined) return undefined;
  if (issuer === undefined || audience === undefined || jwksUrl === undefined) {
    throw new InvalidSettingError('authIssuer, authAudience, authJwksUrl', 'all given or all absent', { issuer, audience, jwksUrl });
  }
  return { issuer: httpsUrl('authIssuer', issuer), audience, jwksUrl: httpsUrl('authJwksUrl', jwksUrl) };
}

function logLevel(read: ContextReader): LogLevel {
  const value = stringSetting(read, 'logLevel')?.toUpperCase() ?? SETTINGS_DEFAULTS.logLevel;
  const level = LOG_LEVELS.find((candidate) => candidate === value);
  if (!level) throw new InvalidSettingError('logLevel', LOG_LEVELS.join(', '), value);
  return level;
}

function alarmEmail(read: ContextReader): string | undefined {
  const value = stringSetting(read, 'alarmEmail');
  if (value !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) {
    throw new InvalidSettingError('alarmEmail', 'an email address', value);
  }
  return value;
}

function accountIds(read: ContextReader, key: string): string[] {
  const accounts = listSetting(read, key);
  for (const account of accounts) {
    if (!/^\d{12}$/.test(account)) throw new InvalidSettingError(key, 'a comma-separated list of 12-digit AWS account ids', account);
  }
  return accounts;
}

/** A per-client limit per minute: given, or `share` of the stage's; below the stage's either way. */
function clientRateLimit(read: ContextReader, key: string, apiRateLimit: number, share: number): number {
  const stagePerMinute = apiRateLimit * 60;
  const fallback = Math.max(WAF_RATE_LIMIT_BOUNDS.min, Math.floor(stagePerMinute / share));
  const limit = integerSetting(read, key, fallback, WAF_RATE_LIMIT_BOUNDS.min, WAF_RATE_LIMIT_BOUNDS.max);
  // A client allowed the whole stage rate could still starve every other one.
  if (limit >= stagePerMinute) throw new InvalidSettingError(key, `below the stage's ${stagePerMinute} requests per minute (apiRateLimit × 60)`, limit);
  return limit;
}

function capacity(read: ContextReader, apiRateLimit: number): CapacitySettings {
  return {
    ipRateLimit: clientRateLimit(read, 'ipRateLimit', apiRateLimit, CLIENT_SHARES.ip),
    tokenRateLimit: clientRateLimit(read, 'tokenRateLimit', apiRateLimit, CLIENT_SHARES.token),
    authorizerConcurrency: integerSetting(read, 'authorizerConcurrency', SETTINGS_DEFAULTS.authorizerConcurrency, 1, 1000),
    imageRouteConcurrency: integerSetting(read, 'imageRouteConcurrency', SETTINGS_DEFAULTS.imageRouteConcurrency, 1, 1000),
  };
}

/** Reads and validates every setting from a construct node's context. */
export function readStackSettings(node: Node): StackSettings {
  const read: ContextReader = (key) => node.tryGetContext(key);
  const logRetentionDays = integerSetting(read, 'logRetentionDays', SETTINGS_DEFAULTS.logRetentionDays, 1, 3653);
  if (!RETENTION_DAYS.includes(logRetentionDays)) {
    throw new InvalidSettingError('logRetentionDays', `one of ${RETENTION_DAYS.join(', ')}`, logRetentionDays);
  }
  const apiRateLimit = integerSetting(read, 'apiRateLimit', SETTINGS_DEFAULTS.apiRateLimit, 1, 10_000);
  return {
    deletionProtection: booleanSetting(read, 'deletionProtection', SETTINGS_DEFAULTS.deletionProtection),
    logRetentionDays,
    apiRateLimit,
    apiBurstLimit: integerSetting(read, 'apiBurstLimit', SETTINGS_DEFAULTS.apiBurstLimit, 1, 5_000),
    corsOrigins: corsOrigins(read),
    // API Gateway caps the authorizer cache at one hour.
    authorizerCacheSeconds: integerSetting(read, 'authorizerCacheSeconds', SETTINGS_DEFAULTS.authorizerCacheSeconds, 0, 3600),
    externalIssuer: externalIssuer(read),
    alarmEmail: alarmEmail(read),
    logLevel: logLevel(read),
    tracing: booleanSetting(read, 'tracing', SETTINGS_DEFAULTS.tracing),
    feedProducerAccounts: accountIds(read, 'feedProducerAccounts'),
    capacity: capacity(read, apiRateLimit),
    cursorKeyGeneration: integerSetting(read, 'cursorKeyGeneration', SETTINGS_DEFAULTS.cursorKeyGeneration, 1, 1_000_000),
    mediaLogRetentionDays: integerSetting(read, 'mediaLogRetentionDays', SETTINGS_DEFAULTS.mediaLogRetentionDays, 0, MAX_RETENTION_DAYS),
  };
}
