import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../../functions/openapi/document';

const run = promisify(execFile);

function openapiCli(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'bin/openapi.ts', ...args], { cwd: join(import.meta.dirname, '..', '..') });
}

describe('npm run openapi', () => {
  it('writes the document GET /openapi.json serves to the named file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    await openapiCli(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  }, 120_000);

  it('refuses extra arguments with a usage line and exit code 2', async () => {
    await expect(openapiCli('a.json', 'b.json')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage:') });
  }, 120_000);
});
