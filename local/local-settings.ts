import { resolve } from 'node:path';
import { AUTH_ENV, authConfig } from '../functions/auth/auth-config';
import { AVATAR_ENV, avatarConfig } from '../functions/avatars/avatar-config';
import { FOLD_ENV, foldConfig } from '../functions/media-log/fold/fold-config';
import { MEDIA_LOG_ENV, mediaLogConfig } from '../functions/media-log/model/retention';
import { dataConfig } from '../functions/shared/config/data-config';
import type { ConfigProblem, ConfigSection } from '../functions/shared/config/define-config';
import { corsPolicy } from '../functions/shared/http/cors-policy';
import { cursorConfig } from '../functions/shared/listing/cursor-config';
import { BACKEND_ENV, backendPorts } from './backends/backend-env';
import { GATEWAY_ENV, gatewaySettings } from './gateway/gateway-settings';
import { LIVE_SERVER_ENV, liveServerSettings } from './live/live-settings';
import { liveConnectionsConfig, liveTicketConfig } from '../functions/live/live-config';

/**
 * The settings a local process (`npm start`, the CLI, `invoke`) takes from its environment,
 * checked before anything starts: a value that cannot work is reported in one line that says
 * what to set, instead of a stack trace from deep inside a handler minutes later. Every variable
 * is named and bounded once, in its configuration section (functions/shared/config/define-config.ts);
 * this module reads those sections and says what their problems mean to someone starting a local run.
 */

/** A setting that cannot be used as given; the message has one line per such setting. */
export class SettingsError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** What a whole-number setting means, and how to say what applies when it is unset (its default, as a number, otherwise). */
interface SettingHelp {
  readonly meaning: string;
  readonly unset?: (fallback: number) => string;
}

const aFreePort = () => 'a free port';

/** The words of the one line that refuses a whole-number setting: by variable, for those the local tools run. */
const SETTING_HELP: Readonly<Record<string, SettingHelp>> = {
  [GATEWAY_ENV.port]: { meaning: 'the port of the local gateway; 0 picks a free one' },
  [GATEWAY_ENV.authorizerCacheTtl]: { meaning: 'seconds an authorizer answer is reused; 0 turns the cache off' },
  [BACKEND_ENV.dynamodbPort]: { meaning: 'the port of DynamoDB Local', unset: aFreePort },
  [BACKEND_ENV.s3Port]: { meaning: 'the port of the local S3', unset: aFreePort },
  [AVATAR_ENV.maxPerUser]: { meaning: 'the most avatars a user keeps' },
  [AVATAR_ENV.maxBytes]: { meaning: 'the largest avatar image fetched, in bytes', unset: (bytes) => `${bytes / 1024 ** 2} MB` },
  [AVATAR_ENV.maxPixels]: { meaning: 'the most pixels an avatar image may have', unset: (pixels) => `${pixels / 1_000_000} MP` },
  [AVATAR_ENV.connectTimeoutMs]: { meaning: 'milliseconds to connect to an avatar URL' },
  [AVATAR_ENV.totalTimeoutMs]: { meaning: 'milliseconds to fetch an avatar image' },
  [AUTH_ENV.jwksCooldownMs]: { meaning: 'least milliseconds between JWKS fetches' },
  [FOLD_ENV.writesInFlight]: { meaning: 'counter writes a fold batch keeps in flight' },
  [MEDIA_LOG_ENV.retentionDays]: { meaning: 'days the media log keeps an entry', unset: () => '0 (kept for ever)' },
  [LIVE_SERVER_ENV.port]: { meaning: 'the port of the live media log\'s WebSocket; 0 picks a free one', unset: () => 'PORT + 1' },
  [LIVE_SERVER_ENV.idleSeconds]: { meaning: 'seconds a live connection may stay idle' },
  [LIVE_SERVER_ENV.connectionSeconds]: { meaning: 'seconds a live connection may stay open' },
};

/** The sections of the functions, which every local entry point runs in its own process. */
export const FUNCTION_SECTIONS: readonly ConfigSection<unknown>[] = [dataConfig, cursorConfig, corsPolicy, authConfig, avatarConfig, foldConfig, mediaLogConfig, liveTicketConfig, liveConnectionsConfig];

/** The sections of the embedded back-ends. */
export const BACKEND_SECTIONS: readonly ConfigSection<unknown>[] = [backendPorts];

/** The sections of the local gateway (`npm start`). */
export const GATEWAY_SECTIONS: readonly ConfigSection<unknown>[] = [gatewaySettings, liveServerSettings];

/** One line that says what is wrong with a setting and what to do about it. */
function settingLine(problem: ConfigProblem): string {
  if (problem.kind !== 'whole-number') return problem.message.endsWith('.') ? problem.message : `${problem.message}.`;
  const { variable, value, min, max, fallback } = problem;
  const help = SETTING_HELP[variable];
  const meaning = help === undefined ? '' : ` (${help.meaning})`;
  const unset = help?.unset?.(fallback) ?? String(fallback);
  return `${variable}=${JSON.stringify(value)} cannot be used: set a whole number from ${min} to ${max}${meaning}, or unset it for ${unset}.`;
}

/**
 * Checks the sections' settings that are set; throws one {@link SettingsError} naming every bad
 * one. An unset required variable is no problem yet: the local environment supplies it when the
 * back-ends are known (table names, the avatar base URL, the signing key's JWKS file).
 */
export function checkSettings(sections: readonly ConfigSection<unknown>[], env: NodeJS.ProcessEnv = process.env): void {
  const problems = sections.flatMap((section) => {
    const reading = section.read(env);
    return reading.ok ? [] : reading.problems.filter((problem) => problem.kind !== 'missing');
  });
  if (problems.length > 0) throw new SettingsError(problems.map(settingLine).join('\n'));
}

/** A section's settings as `env` gives them; any problem throws {@link SettingsError}. */
export function readSettings<T>(section: ConfigSection<T>, env: NodeJS.ProcessEnv = process.env): T {
  const reading = section.read(env);
  if (!reading.ok) throw new SettingsError(reading.problems.map(settingLine).join('\n'));
  return reading.value;
}

/** Where local state lives: `DATA_DIR`, default `.local` in the working directory. */
export function dataDirSetting(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || '.local');
}
