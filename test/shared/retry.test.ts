import { exponentialDelay, fullJitter, retry, retryUnprocessed, UnprocessedItemsError, type Backoff } from '../../functions/shared/async/retry';

/** A backoff that records its waits instead of waiting. */
function recordingBackoff(attempts: number, delayMs: Backoff['delayMs'] = (attempt) => 10 * attempt): Backoff & { waits: number[] } {
  const waits: number[] = [];
  return { attempts, delayMs, sleep: async (ms) => void waits.push(ms), waits };
}

class Raced extends Error {}

describe('retry', () => {
  it('answers the first success, waiting after each failed attempt', async () => {
    const backoff = recordingBackoff(5);
    const seen: number[] = [];

    const result = await retry(async (attempt) => {
      seen.push(attempt);
      if (attempt < 3) throw new Raced();
      return 'done';
    }, { ...backoff, retryable: (error) => error instanceof Raced });

    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(backoff.waits).toEqual([10, 20]);
  });

  it('throws the last retryable error once the attempts are used up, without a wait after the last', async () => {
    const backoff = recordingBackoff(3);
    let calls = 0;
    const failing = retry(async () => {
      calls += 1;
      throw new Raced(`attempt ${calls}`);
    }, { ...backoff, retryable: (error) => error instanceof Raced });

    await expect(failing).rejects.toThrow('attempt 3');
    expect(calls).toBe(3);
    expect(backoff.waits).toEqual([10, 20]);
  });

  it('throws an error that is not retryable at once', async () => {
    const backoff = recordingBackoff(5);
    let calls = 0;
    const failing = retry(async () => {
      calls += 1;
      throw new TypeError('broken');
    }, { ...backoff, retryable: (error) => error instanceof Raced });

    await expect(failing).rejects.toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
    expect(backoff.waits).toEqual([]);
  });

  it('applies the jitter to each wait', async () => {
    const backoff = { ...recordingBackoff(3), jitter: (ms: number) => ms / 2 };

    await expect(retry(async () => Promise.reject(new Raced()), { ...backoff, retryable: () => true })).rejects.toBeInstanceOf(Raced);

    expect(backoff.waits).toEqual([5, 10]);
  });
});

describe('retryUnprocessed', () => {
  it('sends the items left unprocessed again until none is left', async () => {
    const backoff = recordingBackoff(5, exponentialDelay(20, 1000));
    const sent: string[][] = [];

    await retryUnprocessed(['a', 'b', 'c'], async (items) => {
      sent.push([...items]);
      return items.slice(1);
    }, backoff);

    expect(sent).toEqual([['a', 'b', 'c'], ['b', 'c'], ['c']]);
    expect(backoff.waits).toEqual([40, 80]);
  });

  it('sends nothing for no items', async () => {
    let calls = 0;
    await retryUnprocessed([], async () => {
      calls += 1;
      return [];
    }, recordingBackoff(3));
    expect(calls).toBe(0);
  });

  it('gives up with the items still unprocessed after the last attempt', async () => {
    const backoff = recordingBackoff(4);
    let calls = 0;
    const failing = retryUnprocessed(['a', 'b'], async (items) => {
      calls += 1;
      return items.slice(0, 1);
    }, backoff);

    await expect(failing).rejects.toBeInstanceOf(UnprocessedItemsError);
    await expect(failing).rejects.toMatchObject({ unprocessed: ['a'], message: 'After 4 attempts, 1 of the items were still unprocessed.' });
    expect(calls).toBe(4);
    expect(backoff.waits).toEqual([10, 20, 30]);
  });
});

describe('the backoff shapes', () => {
  it('doubles the exponential delay up to its cap', () => {
    const delay = exponentialDelay(50, 1000);
    expect([1, 2, 3, 4, 5].map(delay)).toEqual([100, 200, 400, 800, 1000]);
  });

  it('keeps a full-jitter wait between zero and the computed one', () => {
    const waits = Array.from({ length: 200 }, () => fullJitter(15));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(15);
  });
});
