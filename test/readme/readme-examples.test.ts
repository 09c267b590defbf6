import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, collectOutput, type Run, type RunningServer, startLocalServer } from '../local/entry-points';
import { DOCS_PAGES } from './docs-pages';
import { missingOutcomes, type ReadmeBlock, readmeBlocks } from './readme-blocks';

/**
 * The docs are executable: every shell example of every page of DOCS_PAGES runs here, page after
 * page in reading order (the README first), as a newcomer following them in one terminal would,
 * and an example that fails is a failing test.
 *
 * How to write examples so that they run here:
 * - Every fenced block of language `sh`, `bash` or `shell` is an example and runs, unless the line
 *   right before it (blank lines allowed) is `<!-- readme-test: skip: <reason> -->`. Use that only
 *   for what cannot run in a test (an AWS account, a service of your own, minutes of work), and say
 *   why; a marker without a reason, or with no block after it, fails the test.
 * - Blocks run in document order, page after page in the order of DOCS_PAGES, each in `bash -e` (a command that fails fails its block), from one
 *   folder that looks like a fresh checkout (files a block writes, such as event.json, are there for
 *   the blocks after it). Shell variables a block sets (API, TOKEN) are set in the blocks after it,
 *   as in one terminal.
 * - `npm start` is running: the test runs it, as the README's first block says, on a free port, with
 *   a new DATA_DIR and the back-ends of the test run (DYNAMODB_ENDPOINT, S3_ENDPOINT). PORT holds its
 *   port, so write URLs as `http://127.0.0.1:${PORT:-3000}/…`. The database is new: the first user
 *   created gets id 1.
 * - `# → text` at the end of a line states what that command prints: the block's stdout must contain
 *   every stated text, in order. `curl -s` exits 0 on a 4xx, so state what a curl answers.
 */

const ROOT = process.cwd();
/** A block of one page, named `page:line`. */
type PageBlock = ReadmeBlock & { readonly where: string };

const blocks: PageBlock[] = DOCS_PAGES.flatMap((page) =>
  readmeBlocks(readFileSync(join(ROOT, page), 'utf8'), page).map((block) => ({ ...block, where: `${page}:${block.line}` })),
);
const toRun = blocks.filter((block) => block.skipReason === undefined);
const ran = new Set<string>();

/** A folder like a fresh clone: the tracked top-level entries and node_modules, linked, nothing else. */
function checkoutLikeFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'frontend-api-readme-'));
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((path) => path.split('/')[0] as string);
  for (const entry of new Set([...tracked, 'node_modules'])) symlinkSync(join(ROOT, entry), join(folder, entry));
  return folder;
}

/** Bash's own variables, which a block neither sets nor may set again from a saved state. */
const BASH_OWN = /^(BASH|COMP|FUNCNAME|PIPESTATUS|_$|__readme)/;

/** Runs one block in `bash -e`, with the variables earlier blocks set, saving those it sets. */
function runBlock(block: ReadmeBlock, cwd: string, env: NodeJS.ProcessEnv, stateFile: string): Promise<Run> {
  const script = [
    '__readme_before=$(compgen -v | sort)',
    'if [ -f "$README_STATE" ]; then source "$README_STATE"; fi',
    'set -e',
    block.script,
    'set +e',
    `comm -13 <(printf '%s\\n' "$__readme_before") <(compgen -v | sort) | grep -Ev '${BASH_OWN.source}' | while read -r __readme_name; do declare -p "$__readme_name"; done > "$README_STATE"`,
  ].join('\n');
  const child = spawn('bash', ['-c', script], { cwd, env: { ...env, README_STATE: stateFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return collectOutput(child).finally(() => clearTimeout(timer));
}

describe('the examples of the docs', () => {
  let folder: string;
  let env: NodeJS.ProcessEnv;
  let server: RunningServer;

  beforeAll(async () => {
    folder = checkoutLikeFolder();
    const settings = { DATA_DIR: join(folder, '.local'), PORT: '0' };
    server = await startLocalServer(settings, { command: ['npm', 'start'], cwd: folder });
    env = childEnv({ ...settings, PORT: new URL(server.apiUrl).port });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it.each(toRun.map((block) => [block.where, block] as const))('runs the block at %s', async (_where, block) => {
    const run = await runBlock(block, folder, env, join(folder, '.readme-state.sh'));
    ran.add(block.where);

    const report = `\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
    expect({ status: run.status, report }).toEqual({ status: 0, report });
    expect({ missing: missingOutcomes(block.expected, run.stdout), report }).toEqual({ missing: [], report });
    // A newcomer never meets a stack trace: every failure is meant to be one line.
    expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  }, 150_000);

  it('ran every block that is not marked as skipped, and says why each other one is not run', () => {
    const skipped = blocks.filter((block) => block.skipReason !== undefined);

    expect([...ran]).toEqual(toRun.map((block) => block.where));
    for (const block of skipped) expect((block.skipReason as string).split(/\s+/).length).toBeGreaterThanOrEqual(3);
  });
});
