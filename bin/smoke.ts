import { reportCliError } from '../local/cli/cli-errors';
import { CHECK_VERDICTS, runSmoke } from '../local/smoke/run-smoke';
import { parseSmokeCommand, SMOKE_USAGE } from '../local/smoke/smoke-options';

/**
 * `npm run smoke -- --url API_URL [--token T] [--origin O] [--timeout-ms N]`: check a deployed
 * stage from outside, one line per check on stdout. Exit 0 when every check that ran passed, 1 when
 * one failed, 2 for a usage error (one line on stderr).
 */
async function main(argv: string[]): Promise<number> {
  const command = parseSmokeCommand(argv);
  if (command.kind === 'help') {
    process.stdout.write(SMOKE_USAGE);
    return 0;
  }
  const outcomes = await runSmoke(command.options, (line) => process.stdout.write(`${line}\n`));
  const failed = outcomes.filter((outcome) => outcome.verdict === CHECK_VERDICTS.fail).length;
  process.stderr.write(failed === 0 ? `smoke: ${command.options.baseUrl} passed\n` : `smoke: ${failed} of ${outcomes.length} checks failed\n`);
  return failed === 0 ? 0 : 1;
}

// Exit at once rather than wait for fetch's idle keep-alive connections to time out, but only once
// stdout has taken every line (writes to a pipe are asynchronous on some platforms).
main(process.argv.slice(2))
  .catch(reportCliError)
  .then((status) => process.stdout.write('', () => process.exit(status)));
