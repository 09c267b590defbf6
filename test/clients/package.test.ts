import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The typed client as a frontend installs it: `npm pack` of clients/web builds it and packs what a
 * frontend needs, the ESM modules and their type declarations, and nothing of the server. A
 * frontend project that installs the tarball type-checks its calls against it (a call the API would
 * refuse does not compile) and imports it at run time.
 */

const root = process.cwd();
const scratch = mkdtempSync(join(tmpdir(), 'web-client-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(command: string, args: readonly string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const CONSUMER = `import { signIn, type MediaLogEntry, type LiveMessage } from '@frontend-api/web-client';
const api = signIn('http://127.0.0.1:3000', 'token');
export async function show(): Promise<MediaLogEntry[]> {
  const { data } = await api.mediaLog({ status: ['error'], 'user-id': [1], pagination: { limit: 5 } });
  const watch = api.watchMediaLog({ status: ['pending'] }, (entry, matches) => void [entry.id, matches]);
  watch.close();
  return data?.log ?? [];
}
export const kinds: LiveMessage['type'][] = ['entry', 'overflow'];
`;

describe('the web client package', () => {
  let tarball: string;
  let files: string[];

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], join(root, 'clients', 'web'));
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [summary] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(scratch, summary?.filename ?? '');
    files = (summary?.files ?? []).map((file) => file.path).sort();
  }, 180_000);

  it('holds the built modules, their declarations and the README, and nothing of the server', () => {
    const modules = ['api-types', 'frontend-api', 'index', 'media-log-live', 'retrying-fetch'];
    expect(files).toEqual(['README.md', ...modules.flatMap((name) => [`dist/${name}.d.ts`, `dist/${name}.js`]), 'package.json'].sort());
  });

  it('type-checks a frontend\'s calls against the API, and refuses one the API would refuse', async () => {
    const consumer = join(scratch, 'consumer');
    const installed = join(consumer, 'node_modules', '@frontend-api', 'web-client');
    mkdirSync(installed, { recursive: true });
    expect((await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], scratch)).status).toBe(0);
    for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers']) symlinkSync(join(root, 'node_modules', dependency), join(consumer, 'node_modules', dependency));
    const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true };
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'frontend', type: 'module', private: true }));
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['app.ts'] }));
    writeFileSync(join(consumer, 'app.ts'), CONSUMER);
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const checked = await run(tsc, ['-p', 'tsconfig.json'], consumer);
    expect(checked.stdout).toBe('');
    expect(checked.status).toBe(0);

    writeFileSync(join(consumer, 'app.ts'), CONSUMER.replace("status: ['error']", "status: ['lost']"));
    const refused = await run(tsc, ['-p', 'tsconfig.json'], consumer);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toMatch(/"lost"/);

    const loaded = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('@frontend-api/web-client'); console.log(typeof m.signIn, typeof m.watchMediaLog)"], consumer);
    expect(loaded.stdout.trim()).toBe('function function');
  }, 120_000);
});
