import { reportCliError, UsageError } from '../local/cli/cli-errors';

/**
 * The operator CLI: the local data directory, or the deployed tables when their names are set.
 * A command's module (and the AWS SDK with it) is loaded only when that command runs, so
 * `--help` and usage errors answer at once.
 */

type Command = (args: string[]) => Promise<void>;

/** Every command: its synopsis, what it does, and how to load it. */
const COMMANDS: Readonly<Record<string, { readonly synopsis: string; readonly does: string; readonly load: () => Promise<Command> }>> = {
  'user create': {
    synopsis: `user create --email E [--username U] [--role root|admin|user|sub] [--status S]
              [--parent ID] [--first-name F] [--last-name L] [--subject S]`,
    does: 'Creates a user under the API\'s rules and prints it as JSON. With USER_POOL_ID (and no --subject), invites the person into that Cognito pool and stores its sub.',
    load: async () => (await import('../local/cli/user-commands')).userCreate,
  },
  'user update': {
    synopsis: 'user update ID [--status S] [--role R] [--parent ID|none] [--first-name F] [--last-name L]',
    does: 'Changes a user under the API\'s rules (suspend, reactivate, promote, demote) and prints it; it applies on the user\'s next request. A new parent re-keys the user\'s media log entries to its new family before the command returns, with progress on stderr.',
    load: async () => (await import('../local/cli/account-commands')).userUpdate,
  },
  'user delete': {
    synopsis: 'user delete ID',
    does: 'Deletes a user and its avatars\' images; a user with sub users is refused.',
    load: async () => (await import('../local/cli/account-commands')).userDelete,
  },
  'user get': {
    synopsis: 'user get ID',
    does: 'Prints a user as JSON.',
    load: async () => (await import('../local/cli/account-commands')).userGet,
  },
  'user list': {
    synopsis: 'user list [--role R[,R…]] [--status S[,S…]]',
    does: 'Prints every user (of those roles and statuses) as a JSON array, by id.',
    load: async () => (await import('../local/cli/account-commands')).userList,
  },
  token: {
    synopsis: 'token --user ID [--ttl SECONDS]',
    does: 'Prints a bearer token for the user, valid for 3600 s (an hour) unless --ttl says otherwise.',
    load: async () => (await import('../local/cli/user-commands')).token,
  },
  'media-log import': {
    synopsis: 'media-log import FILE.ndjson',
    does: 'Imports media log entries, one JSON object a line; a bad line writes nothing.',
    load: async () => (await import('../local/cli/media-log-commands')).mediaLogImport,
  },
  'media-log migrate': {
    synopsis: 'media-log migrate --from TABLE [--rate N]',
    does: 'Copies the entries of a media log table of the previous layout into this one, at most N a second (default 500) (docs/operations.md, "Upgrading the media log"); running it again copies nothing twice.',
    load: async () => (await import('../local/cli/migrate-command')).mediaLogMigrate,
  },
  'media-log backfill-families': {
    synopsis: 'media-log backfill-families',
    does: 'Keys every media log entry written before families were kept to its user\'s family (docs/operations.md, "Upgrading the media log"); running it again changes nothing.',
    load: async () => (await import('../local/cli/family-commands')).mediaLogBackfillFamilies,
  },
  'media-log rekey': {
    synopsis: 'media-log rekey ID --from FAMILY',
    does: 'Finishes moving the media log entries of a user to its family, from the family it left, when the background re-key gave up (its failure queue says so: docs/operations.md, "Alarms and what to do"); running it again changes nothing.',
    load: async () => (await import('../local/cli/family-commands')).mediaLogRekey,
  },
  'media-log recount': {
    synopsis: 'media-log recount [--settle SECONDS]',
    does: 'Rebuilds the media log counters from a scan of the entries, beside a running fold, and prints the drift it corrected as JSON; between its two scans it waits for the fold\'s measured progress, at most --settle seconds (600 unless told).',
    load: async () => (await import('../local/cli/recount-command')).mediaLogRecount,
  },
  seed: {
    synopsis: 'seed [--users N] [--log N]',
    does: 'Creates demo users and media log entries (20 and 500 unless told).',
    load: async () => (await import('../local/cli/seed-command')).seed,
  },
};

function describe(command: (typeof COMMANDS)[string]): string {
  return `  ${command.synopsis}\n      ${command.does}`;
}

const USAGE = `Usage: npm run --silent cli -- <command> [options]

${Object.values(COMMANDS).map(describe).join('\n')}
  help, --help
      Prints this text; \`<command> --help\` prints that command's.

Works on the back-ends of DATA_DIR (default .local): those of a running \`npm start\`, or started
for the command. Results go to stdout; progress and errors go to stderr.`;

const HELP = ['--help', '-h', 'help'];

/** The command named by the first one or two words (`user create`), and the rest of the arguments. */
function commandOf(argv: readonly string[]): [string, string[]] {
  const first = argv[0] ?? '';
  const grouped = Object.keys(COMMANDS).some((name) => name.startsWith(`${first} `));
  return grouped ? [argv.slice(0, 2).join(' '), argv.slice(2)] : [first, argv.slice(1)];
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (HELP.includes(argv[0] as string)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [name, rest] = commandOf(argv);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    throw new UsageError(name.startsWith('-') ? `unknown option '${name}' (see --help).` : `unknown command '${name}' (see --help).`);
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`Usage: npm run --silent cli -- ${command.synopsis.trimStart()}\n${command.does}\n`);
    return 0;
  }
  await (await command.load())(rest);
  return 0;
}

main(process.argv.slice(2))
  .catch(reportCliError)
  .then((status) => process.exit(status));
