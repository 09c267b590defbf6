import { comboAttribute, comboMatcher, entryCounterKeys } from '../../functions/media-log/model/counters';
import { sendKey } from '../../functions/media-log/model/keys';
import { bucketEnd, bucketOf, bucketsSpanned, bucketStart, bucketsTouched, instantAfter, TIME_MAX } from '../../functions/media-log/model/time-buckets';
import { edgeAfter, edgeAt, lastKeyBefore, rangeFrom } from '../../functions/shared/listing/key-range';

describe('time buckets', () => {
  it.each([
    ['month', '2025-12', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['month', '2024-02', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['month', '0050-01', '0050-01-01T00:00:00.000Z', '0050-02-01T00:00:00.000Z'],
    ['day', '2024-02-29', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['hour', '2025-12-31T23', '2025-12-31T23:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['month', '9999-12', '9999-12-01T00:00:00.000Z', TIME_MAX],
  ] as const)('%s %s runs from %s to %s', (level, bucket, start, end) => {
    expect(bucketStart(bucket)).toBe(start);
    expect(bucketEnd(level, bucket)).toBe(end);
    expect(bucketOf(level, start)).toBe(bucket);
  });

  it('counts the buckets a stretch of time touches', () => {
    expect(bucketsSpanned('hour', { from: '2026-01-01T03:17:00.000Z', to: '2026-01-02T00:00:00.000Z' })).toBe(21);
    expect(bucketsSpanned('day', { from: '2026-01-20T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' })).toBe(12);
  });

  it.each([
    ['a range ending inside a month', { from: '2025-11-20T10:00:00.000Z', to: '2026-01-10T00:00:00.001Z' }, { from: '2025-11', to: '2026-01\u0000' }],
    ['a range ending where a month starts', { from: '2025-11-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' }, { from: '2025-11', to: '2026-01' }],
    ['an open range', {}, {}],
  ])('names the month counters %s touches, as a half-open range of their keys', (_name, range, months) => {
    expect(bucketsTouched('month', range)).toEqual(months);
  });

  it('makes an inclusive send[to] exclusive by one millisecond, and leaves the range open past the year 9999', () => {
    expect(instantAfter('2026-01-10T14:30:00.000Z')).toBe('2026-01-10T14:30:00.001Z');
    expect(instantAfter('9999-12-31T23:59:59.999Z')).toBeUndefined();
  });
});

describe('send keys and walk edges', () => {
  const key = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0');
  const before = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ef');
  const after = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f1');
  const holds = (range: { from?: string; to?: string }, candidate: string) => (range.from === undefined || candidate >= range.from) && (range.to === undefined || candidate < range.to);

  it.each([true, false])('resumes after a key, or at it, without shifting a character (ascending: %s)', (ascending) => {
    const [next, previous] = ascending ? [after, before] : [before, after];
    expect([previous, key, next].map((candidate) => holds(rangeFrom({}, edgeAfter(key, ascending), ascending), candidate))).toEqual([false, false, true]);
    expect([previous, key, next].map((candidate) => holds(rangeFrom({}, edgeAt(key, ascending), ascending), candidate))).toEqual([false, true, true]);
  });

  it('turns an exclusive end into the inclusive bound of a BETWEEN that holds the same keys', () => {
    expect(lastKeyBefore(`${key}\u0000`)).toBe(key);
    const end = '2026-01-10T14:30:00.000Z';
    const lastBefore = lastKeyBefore(end);
    expect([sendKey('2026-01-10T14:29:59.999Z', 'ffffffff-ffff-4fff-8fff-ffffffffffff') <= lastBefore, key <= lastBefore]).toEqual([true, false]);
    expect([before <= lastKeyBefore(key), key <= lastKeyBefore(key)]).toEqual([true, false]);
  });
});

describe('counters', () => {
  const entry = {
    id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f7',
    send: '2026-01-10T14:30:00.000Z',
    'user-id': 5,
    url: 'https://media.example.com/a.mp4',
    status: 'error',
    'status-ffscan': 'success',
    'status-mediainfo': 'error',
    'status-scan-report': 'skipped',
  } as const;

  it('names a status combination with one letter per field and matches filters against it', () => {
    const combo = comboAttribute(entry);
    expect(combo).toBe('cesek');
    expect(comboMatcher({ status: ['error', 'warning'], 'status-scan-report': ['skipped'] })(combo)).toBe(true);
    expect(comboMatcher({ 'status-ffscan': ['error'] })(combo)).toBe(false);
    expect(comboMatcher({})('n')).toBe(false);
  });

  it('counts an entry in the month, day and hour of the whole log and the month of its user, one item per bucket, and not per url', () => {
    expect(entryCounterKeys(entry)).toEqual([
      { pk: 'COUNT#ALL#month', sk: '2026-01' },
      { pk: 'COUNT#ALL#day#2026-01', sk: '2026-01-10' },
      { pk: 'COUNT#ALL#hour#2026-01-10', sk: '2026-01-10T14' },
      { pk: 'COUNT#USER#5#month', sk: '2026-01' },
    ]);
  });
});
