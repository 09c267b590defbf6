import { resolve } from 'node:path';

/**
 * The settings a local process (`npm start`, the CLI, `invoke`) takes from its environment,
 * checked before anything starts: a value that cannot work is reported in one line that says
 * what to set, instead of a stack trace from deep inside a handler minutes later.
 */

/** A setting that cannot be used as given; the message has one line per such setting. */
export class SettingsError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** A whole-number setting: its range, what it means, and what applies when it is unset. */
interface WholeNumberSetting {
  readonly min: number;
  readonly max: number;
  readonly meaning: string;
  readonly unset: string;
}

const PORT_RANGE = { min: 1, max: 65_535 } as const;
const POSITIVE = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/** Every whole-number setting of the local environment. */
export const WHOLE_NUMBER_SETTINGS = {
  PORT: { min: 0, max: 65_535, meaning: 'the port of the local gateway; 0 picks a free one', unset: '3000' },
  DYNAMODB_LOCAL_PORT: { ...PORT_RANGE, meaning: 'the port of DynamoDB Local', unset: 'a free port' },
  S3_LOCAL_PORT: { ...PORT_RANGE, meaning: 'the port of the local S3', unset: 'a free port' },
  // API Gateway's own range for the authorizer cache (AuthorizerResultTtlInSeconds: 0 disables it,
  // at most 3600), https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-apigateway-authorizer.html
  AUTHORIZER_CACHE_TTL: { min: 0, max: 3600, meaning: 'seconds an authorizer answer is reused; 0 turns the cache off', unset: '300' },
  AVATAR_MAX_BYTES: { ...POSITIVE, meaning: 'the largest avatar image fetched, in bytes', unset: '10 MB' },
  AVATAR_MAX_PIXELS: { ...POSITIVE, meaning: 'the most pixels an avatar image may have', unset: '40 MP' },
  AVATAR_FETCH_CONNECT_TIMEOUT_MS: { ...POSITIVE, meaning: 'milliseconds to connect to an avatar URL', unset: '3000' },
  AVATAR_FETCH_TIMEOUT_MS: { ...POSITIVE, meaning: 'milliseconds to fetch an avatar image', unset: '10000' },
  AUTH_JWKS_COOLDOWN_MS: { min: 0, max: Number.MAX_SAFE_INTEGER, meaning: 'least milliseconds between JWKS fetches', unset: '30000' },
} as const satisfies Record<string, WholeNumberSetting>;

/** The name of a whole-number setting. */
export type WholeNumberSettingName = keyof typeof WHOLE_NUMBER_SETTINGS;

/** The settings the functions read (limits, timeouts), which every local entry point runs. */
export const FUNCTION_SETTINGS = [
  'AVATAR_MAX_BYTES',
  'AVATAR_MAX_PIXELS',
  'AVATAR_FETCH_CONNECT_TIMEOUT_MS',
  'AVATAR_FETCH_TIMEOUT_MS',
  'AUTH_JWKS_COOLDOWN_MS',
] as const satisfies readonly WholeNumberSettingName[];

/** The settings of the embedded back-ends. */
export const BACKEND_SETTINGS = ['DYNAMODB_LOCAL_PORT', 'S3_LOCAL_PORT'] as const satisfies readonly WholeNumberSettingName[];

/** The settings of the local gateway (`npm start`). */
export const GATEWAY_SETTINGS = ['PORT', 'AUTHORIZER_CACHE_TTL'] as const satisfies readonly WholeNumberSettingName[];

function problemWith(name: WholeNumberSettingName, raw: string): string | undefined {
  const setting: WholeNumberSetting = WHOLE_NUMBER_SETTINGS[name];
  // Digits only: Number() would also take "1e3", "0x50" and " 80 ".
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= setting.min && value <= setting.max) return undefined;
  const range = setting.max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${setting.min}` : `a whole number from ${setting.min} to ${setting.max}`;
  return `${name}=${JSON.stringify(raw)} cannot be used: set ${range} (${setting.meaning}), or unset it for ${setting.unset}.`;
}

/** Checks the named settings that are set; throws one {@link SettingsError} naming every bad one. */
export function checkSettings(names: readonly WholeNumberSettingName[], env: NodeJS.ProcessEnv = process.env): void {
  const problems = names.flatMap((name) => {
    const raw = env[name];
    return raw === undefined || raw === '' ? [] : (problemWith(name, raw) ?? []);
  });
  if (problems.length > 0) throw new SettingsError(problems.join('\n'));
}

/** A whole-number setting's value, or `fallback` when unset; a bad value throws {@link SettingsError}. */
export function wholeNumberSetting(name: WholeNumberSettingName, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  checkSettings([name], env);
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : Number(raw);
}

/** Where local state lives: `DATA_DIR`, default `.local` in the working directory. */
export function dataDirSetting(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || '.local');
}
