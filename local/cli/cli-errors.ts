import { ProblemError, ValidationError } from '../../functions/shared/errors';
import { PROBLEMS } from '../../functions/shared/http/problem-catalog';
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
 * A problem as an operator reads it: one plain reason. Only a validation problem's fields are
 * reasons (which input is wrong); those of any other problem annotate it for API clients and may
 * name a field of another change than the command's (a refused delete is no change of `role`).
 * Under the catalog's generic detail ("invalid parameters or fields") the fields are the whole
 * reason, on the same line; under a detail of its own (a file's bad lines) they follow it, one a line.
 */
function problemReason(problem: ProblemError): string {
  const fields = (problem instanceof ValidationError ? problem.errors ?? [] : []).map((field) => `${field.name}: ${field.reason}`);
  if (fields.length === 0) return problem.detail;
  if (problem.detail === PROBLEMS[problem.code].detail) return fields.join('; ');
  return [problem.detail, ...fields.map((field) => `  ${field}`)].join('\n');
}

/**
 * Print an error as an operator should read it — one reason, on one line but for a file's bad
 * lines — and return the exit status: 2 for usage errors, 1 for everything else.
 */
export function reportCliError(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`usage error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ProblemError) {
    process.stderr.write(`error: ${problemReason(error)}\n`);
    return 1;
  }
  if (error instanceof LocalBackendError || error instanceof SettingsError) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
