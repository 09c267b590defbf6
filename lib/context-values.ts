/**
 * Reading CDK context values (`cdk.json` or `cdk deploy -c key=value`): unset, strings from the
 * command line and real JSON values from cdk.json all read alike, and a malformed one throws an
 * {@link InvalidSettingError} naming its key and the form it must take. The settings themselves
 * are in stack-settings.ts.
 */

/** Thrown when a context value is malformed; the message names the key and the expected form. */
export class InvalidSettingError extends Error {
  public constructor(key: string, expected: string, value: unknown) {
    super(`Context "${key}" must be ${expected}, got ${JSON.stringify(value)}.`);
    this.name = 'InvalidSettingError';
  }
}

/** Reads one context value by key (`node.tryGetContext`). */
export type ContextReader = (key: string) => unknown;

function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A true/false value, or `fallback` when unset. */
export function booleanSetting(read: ContextReader, key: string, fallback: boolean): boolean {
  const value = read(key);
  if (isUnset(value)) return fallback;
  // `-c key=false` arrives as a string; cdk.json can hold a real boolean.
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new InvalidSettingError(key, 'true or false', value);
}

/** A whole number within [min, max], or `fallback` when unset. */
export function integerSetting(read: ContextReader, key: string, fallback: number, min: number, max: number): number {
  const value = read(key);
  if (isUnset(value)) return fallback;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new InvalidSettingError(key, `an integer from ${min} to ${max}`, value);
  }
  return number;
}

/** A trimmed string, or undefined when unset. */
export function stringSetting(read: ContextReader, key: string): string | undefined {
  const value = read(key);
  if (isUnset(value)) return undefined;
  if (typeof value !== 'string') throw new InvalidSettingError(key, 'a string', value);
  return value.trim();
}

/** A comma-separated list (or a JSON array in cdk.json), empty when unset. */
export function listSetting(read: ContextReader, key: string): string[] {
  const value = read(key);
  if (isUnset(value)) return [];
  const items = Array.isArray(value) ? value : String(value).split(',');
  return items.map((item) => String(item).trim()).filter((item) => item !== '');
}

/** `value` when it is an https URL; otherwise an {@link InvalidSettingError} naming `key`. */
export function httpsUrl(key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidSettingError(key, 'an https URL', value);
  }
  if (url.protocol !== 'https:') throw new InvalidSettingError(key, 'an https URL', value);
  return value;
}
