import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-errors';

/** The options of a command, parsed strictly (an unknown option is a usage error), and its positionals. */
export function parseCommand(args: string[], options: NonNullable<ParseArgsConfig['options']>, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument '${parsed.positionals[positionals]}'.`);
  return { values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

/** A user id given as `flag`, or undefined when absent; anything but a whole number >= 1 is a usage error. */
export function parseUserId(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} takes a user id (a whole number >= 1).`);
  return Number(raw);
}
