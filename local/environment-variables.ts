/**
 * Reading the environment of the local tools (`npm start`, the CLI, `invoke`, the tests' set-up):
 * their own settings (ports, the data directory) and the back-ends' endpoints. The functions read
 * theirs through functions/shared/config.
 */

/** Thrown when a local setting is missing or malformed; its message is the one line to show. */
export class LocalSettingError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'LocalSettingError';
  }
}

/** A variable that must be set. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') throw new LocalSettingError(`${name} is required.`);
  return value;
}

/** A variable's value, or `fallback` when unset. */
export function optionalEnv(name: string, fallback: string): string {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? fallback : value;
}

/** A whole number within [min, max], or `fallback` when unset; anything else is a {@link LocalSettingError}. */
export function integerEnv(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = /^\d{1,16}$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new LocalSettingError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  return value;
}
