import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirError, prepareDataDir } from '../../local/backends/data-dir';

const scratch = mkdtempSync(join(tmpdir(), 'frontend-api-data-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('prepareDataDir', () => {
  it('creates every missing folder of the path and leaves nothing else in it', async () => {
    const dataDir = join(scratch, 'a', 'b', 'c');

    await prepareDataDir(dataDir);

    expect(statSync(dataDir).isDirectory()).toBe(true);
    expect(existsSync(join(dataDir, `.write-check-${process.pid}`))).toBe(false);
  });

  it('names the file that stands where a folder should be', async () => {
    const file = join(scratch, 'plain-file');
    writeFileSync(file, '');

    await expect(prepareDataDir(join(file, 'data'))).rejects.toThrow(`DATA_DIR ${join(file, 'data')} cannot be used: ${file} is a file, not a folder; set DATA_DIR to a folder you can write to.`);
  });

  it('answers at once, in one line, where no folder can be made (Node\'s recursive mkdir never returns there)', async () => {
    const start = prepareDataDir('/proc/frontend-api-test/data');

    await expect(start).rejects.toBeInstanceOf(DataDirError);
    await expect(start).rejects.toThrow(/^DATA_DIR \/proc\/frontend-api-test\/data cannot be used: [^\n]+$/);
  });
});
