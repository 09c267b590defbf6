import { jest } from '@jest/globals';
import { Writable } from 'node:stream';
import { progressBar, PROGRESS_LINE_EVERY_MS } from '../../local/cli/progress';

/** A stream like stderr piped to a file: no terminal. */
function pipe(): { stream: Writable; lines: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, lines: () => text.trim().split('\n') };
}

describe('progress when stderr is no terminal', () => {
  afterEach(() => jest.useRealTimers());

  it('writes a line at the start, one every few seconds with done/total and rate, and one at the end', async () => {
    jest.useFakeTimers();
    const { stream, lines } = pipe();
    const progress = progressBar('media log', 1000, { stream });

    progress.update(250);
    await jest.advanceTimersByTimeAsync(PROGRESS_LINE_EVERY_MS);
    progress.update(600);
    await jest.advanceTimersByTimeAsync(PROGRESS_LINE_EVERY_MS);
    progress.update(1000);
    await jest.advanceTimersByTimeAsync(1000);
    progress.stop();

    expect(lines()).toEqual(['media log: 0/1000', 'media log: 250/1000 (25%), 50/s', 'media log: 600/1000 (60%), 60/s', 'media log: 1000/1000 in 11.0 s (91/s)']);
  });

  it('writes no more lines once stopped', async () => {
    jest.useFakeTimers();
    const { stream, lines } = pipe();
    const progress = progressBar('users', 3, { stream });

    progress.update(3);
    progress.stop();
    progress.stop();
    await jest.advanceTimersByTimeAsync(3 * PROGRESS_LINE_EVERY_MS);

    expect(lines()).toEqual(['users: 0/3', expect.stringMatching(/^users: 3\/3 in 0\.0 s \(\d+\/s\)$/)]);
  });
});
