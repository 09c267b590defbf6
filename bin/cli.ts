import { reportCliError, UsageError } from '../local/cli/cli-errors';
import { mediaLogImport } from '../local/cli/media-log-commands';
import { seed } from '../local/cli/seed-command';
import { token, userCreate } from '../local/cli/user-commands';
import { userDelete, userGet, userUpdate } from '../local/cli/account-commands';

const USAGE = `Usage: npm run --silent cli -- <command>
  user create --email E [--username U] [--role root|admin|user|sub] [--status S] [--parent ID]
              [--first-name F] [--last-name L] [--subject S]
  user update ID [--status S] [--role R] [--parent ID|none] [--first-name F] [--last-name L]
  user delete ID
  user get ID
  token --user ID [--ttl SECONDS]
  media-log import FILE.ndjson
  seed [--users N] [--log N]`;

const commands: Record<string, (args: string[]) => Promise<void>> = {
  'user create': userCreate,
  'user update': userUpdate,
  'user delete': userDelete,
  'user get': userGet,
  token,
  'media-log import': mediaLogImport,
  seed,
};

/** The operator CLI: the local data directory, or the deployed tables when their names are set. */
async function main(argv: string[]): Promise<number> {
  const two = argv.slice(0, 2).join(' ');
  const [name, rest] = commands[two] ? [two, argv.slice(2)] : [argv[0] ?? '', argv.slice(1)];
  const command = commands[name];
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return name === '' || name === '--help' ? 0 : 2;
  }
  await command(rest);
  return 0;
}

main(process.argv.slice(2))
  .catch(reportCliError)
  .then((status) => process.exit(status));
