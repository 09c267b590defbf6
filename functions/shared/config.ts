/**
 * Environment read once, through helpers that fail loudly when a required value is missing.
 */

/** Thrown at start-up when the environment lacks a required variable. */
export class MissingConfigurationError extends Error {
  public constructor(variable: string) {
    super(`Environment variable ${variable} is required.`);
    this.name = 'MissingConfigurationError';
  }
}

/** A required environment variable's value. */
export function requiredEnv(variable: string): string {
  const value = process.env[variable];
  if (value === undefined || value === '') throw new MissingConfigurationError(variable);
  return value;
}

/** An optional environment variable's value, or `fallback`. */
export function optionalEnv(variable: string, fallback: string): string {
  const value = process.env[variable];
  return value === undefined || value === '' ? fallback : value;
}

/** An optional positive integer setting (limits, timeouts), or `fallback`; a malformed value fails. */
export function integerEnv(variable: string, fallback: number): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`Environment variable ${variable} must be a positive integer, got "${raw}".`);
  }
  return value;
}
