import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The committed client types are what `npm run client` generates from the OpenAPI document today:
 * a change of the contract shows in review as a change of clients/web/src/api-types.ts.
 */

function generate(): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', 'client.ts'), '-'],
      { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the typed client', () => {
  it('has committed types equal to those generated from the current OpenAPI document (run `npm run client` after a contract change)', async () => {
    const generated = await generate();
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    expect(generated.stdout).toContain('export interface paths');
    const committed = readFileSync(join(process.cwd(), 'clients', 'web', 'src', 'api-types.ts'), 'utf8');
    expect(committed).toBe(generated.stdout);
  }, 60_000);
});
