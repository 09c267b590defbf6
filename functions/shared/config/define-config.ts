/**
 * Configuration, read once: each concern defines a typed section from the environment with
 * {@link defineConfig}; a function loads the sections it needs at cold start, and a missing or
 * malformed variable fails that cold start with one message naming every problem. Nothing else in
 * functions/ reads `process.env`. Local defaults are supplied by the local environment (local/),
 * never by fallbacks here.
 */

/**
 * One problem a section found: a required variable unset, a whole number out of its range (with
 * the range and the product default, so that a local tool can say what to set), or anything else
 * the section refuses (its message names the variable).
 */
export type ConfigProblem =
  | { readonly kind: 'missing'; readonly variable: string; readonly message: string }
  | {
      readonly kind: 'whole-number';
      readonly variable: string;
      readonly value: string;
      readonly min: number;
      readonly max: number;
      readonly fallback: number;
      readonly message: string;
    }
  | { readonly kind: 'invalid'; readonly message: string };

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
  /**
   * A whole number within [min, max], written in digits only, or `fallback` when unset: a product
   * default, not an environment's.
   */
  integer(name: string, fallback: number, range: { readonly min: number; readonly max: number }): number;
  /** A secret of at least `minLength` characters. */
  secret(name: string, minLength: number): string;
  /** A comma-separated list (empty when unset). */
  list(name: string): string[];
  /** Report a problem found by the section's own checks. */
  problem(message: string): void;
}

/** A section read from a given environment, kept nowhere: its value, or every problem with it. */
export type ConfigReading<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** A configuration section: loaded on first use (at cold start), the same object after. */
export interface ConfigSection<T> {
  (): T;
  readonly section: string;
  /**
   * Read the section from `env` now, keeping nothing: for the local tools, which check the
   * settings before they start anything and read their own from the same definitions.
   */
  read(env: NodeJS.ProcessEnv): ConfigReading<T>;
}

const sections = new Set<{ reset(): void }>();

function readerOf(env: NodeJS.ProcessEnv, problems: ConfigProblem[]): EnvReader {
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  const missing = (variable: string) => void problems.push({ kind: 'missing', variable, message: `${variable} is required` });
  return {
    required: (name) => value(name) ?? (missing(name), ''),
    optional: value,
    integer: (name, fallback, { min, max }) => {
      if (value(name) === undefined) return fallback;
      const raw = env[name] as string;
      // Digits only: Number() would also take "1e3", "0x50" and " 80 ".
      const number = /^-?\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(number) && number >= min && number <= max) return number;
      const message = `${name} must be a whole number from ${min} to ${max}, got "${raw}"`;
      problems.push({ kind: 'whole-number', variable: name, value: raw, min, max, fallback, message });
      return fallback;
    },
    secret: (name, minLength) => {
      const raw = value(name);
      if (raw === undefined) missing(name);
      else if (raw.length < minLength) problems.push({ kind: 'invalid', message: `${name} must be at least ${minLength} characters` });
      return raw ?? '';
    },
    list: (name) => (value(name) ?? '').split(',').map((item) => item.trim()).filter((item) => item !== ''),
    problem: (message) => void problems.push({ kind: 'invalid', message }),
  };
}

/**
 * Define a configuration section: `load` reads what the concern needs from the environment, once,
 * on the section's first use.
 */
export function defineConfig<T>(section: string, load: (env: EnvReader) => T): ConfigSection<T> {
  const readFrom = (env: NodeJS.ProcessEnv) => {
    const problems: ConfigProblem[] = [];
    const value = load(readerOf(env, problems));
    return { value, problems };
  };
  let loaded: { readonly value: T } | undefined;
  const get = (() => {
    if (loaded === undefined) {
      const { value, problems } = readFrom(process.env);
      if (problems.length > 0) throw new ConfigurationError(section, problems.map((problem) => problem.message));
      loaded = { value };
    }
    return loaded.value;
  }) as ConfigSection<T>;
  const read = (env: NodeJS.ProcessEnv): ConfigReading<T> => {
    try {
      const { value, problems } = readFrom(env);
      return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
    } catch (error) {
      // A section that cannot even be built (a key file that cannot be read) is one more problem to report.
      return { ok: false, problems: [{ kind: 'invalid', message: error instanceof Error ? error.message : String(error) }] };
    }
  };
  Object.defineProperties(get, { section: { value: section }, read: { value: read } });
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
