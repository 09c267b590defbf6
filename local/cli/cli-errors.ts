import { ProblemError } from '../../functions/shared/errors';
import { LocalBackendError } from '../backends/errors';
import { SettingsError } from '../local-settings';

/** A command line that cannot be run as written (exit status 2). */
export class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The usage error for a command line `parseArgs` refused, in one short line: Node's own text for an
 * unknown option goes on about positional arguments, which says nothing to someone who mistyped.
 */
export function usageErrorOf(error: unknown): UsageError {
  const { code, message } = error as NodeJS.ErrnoException;
  const option = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) return new UsageError(`unknown option '${option}' (see --help).`);
  return new UsageError(`${message.split('. ')[0]} (see --help).`);
}

/**
 * Print an error as an operator should read it — one line, plus the offending fields — and return
 * the exit status: 2 for usage errors, 1 for everything else.
 */
export function reportCliError(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`usage error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ProblemError) {
    process.stderr.write(`error: ${error.detail}\n`);
    for (const field of error.errors ?? []) process.stderr.write(`  ${field.name}: ${field.reason}\n`);
    return 1;
  }
  if (error instanceof LocalBackendError || error instanceof SettingsError) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
