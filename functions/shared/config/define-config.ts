/**
 * Configuration, read once: each concern defines a typed section from the environment with
 * {@link defineConfig}; a function loads the sections it needs at cold start, and a missing or
 * malformed variable fails that cold start with one message naming every problem. Nothing else in
 * functions/ reads `process.env`. Local defaults are supplied by the local environment (local/),
 * never by fallbacks here.
 */

/** Thrown when the environment lacks a required variable or holds a malformed one. */
export class ConfigurationError extends Error {
  public readonly problems: readonly string[];

  public constructor(section: string, problems: readonly string[]) {
    super(`Configuration "${section}": ${problems.join('; ')}.`);
    this.name = 'ConfigurationError';
    this.problems = problems;
  }
}

/** How a section reads the environment; every problem is collected, none thrown on its own. */
export interface EnvReader {
  /** A variable that must be set and not blank. */
  required(name: string): string;
  /** A variable that may be unset (undefined then). */
  optional(name: string): string | undefined;
  /** A whole number within [min, max], or `fallback` when unset: a product default, not an environment's. */
  integer(name: string, fallback: number, range: { readonly min: number; readonly max: number }): number;
  /** A secret of at least `minLength` characters. */
  secret(name: string, minLength: number): string;
  /** A comma-separated list (empty when unset). */
  list(name: string): string[];
  /** Report a problem found by the section's own checks. */
  problem(message: string): void;
}

/** A configuration section: loaded on first use (at cold start), the same object after. */
export interface ConfigSection<T> {
  (): T;
  readonly section: string;
}

const sections = new Set<{ reset(): void }>();

function readerOf(env: NodeJS.ProcessEnv, problems: string[]): EnvReader {
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  return {
    required: (name) => value(name) ?? (problems.push(`${name} is required`), ''),
    optional: value,
    integer: (name, fallback, range) => {
      const raw = value(name);
      if (raw === undefined) return fallback;
      const number = /^-?\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(number) && number >= range.min && number <= range.max) return number;
      problems.push(`${name} must be a whole number from ${range.min} to ${range.max}, got "${raw}"`);
      return fallback;
    },
    secret: (name, minLength) => {
      const raw = value(name);
      if (raw === undefined) problems.push(`${name} is required`);
      else if (raw.length < minLength) problems.push(`${name} must be at least ${minLength} characters`);
      return raw ?? '';
    },
    list: (name) => (value(name) ?? '').split(',').map((item) => item.trim()).filter((item) => item !== ''),
    problem: (message) => void problems.push(message),
  };
}

/**
 * Define a configuration section: `load` reads what the concern needs from the environment, once,
 * on the section's first use.
 */
export function defineConfig<T>(section: string, load: (env: EnvReader) => T): ConfigSection<T> {
  let loaded: { readonly value: T } | undefined;
  const get = (() => {
    if (loaded === undefined) {
      const problems: string[] = [];
      const value = load(readerOf(process.env, problems));
      if (problems.length > 0) throw new ConfigurationError(section, problems);
      loaded = { value };
    }
    return loaded.value;
  }) as ConfigSection<T>;
  Object.defineProperty(get, 'section', { value: section });
  sections.add({ reset: () => void (loaded = undefined) });
  return get;
}

/**
 * Forget every loaded section, so that the next use reads the environment again: for tests and
 * benches that switch one process between back-ends, never for a deployed function.
 */
export function resetConfiguration(): void {
  for (const section of sections) section.reset();
}

/** Whether the process runs in AWS Lambda (the runtime sets this reserved variable). */
export function inLambda(): boolean {
  return process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
}
