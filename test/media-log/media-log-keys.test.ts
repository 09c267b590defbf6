import { comboAttribute, comboMatcher, entryCounterKeys } from '../../functions/media-log/model/counters';
import { sendKey } from '../../functions/media-log/model/keys';
import { bucketEnd, bucketOf, bucketsSpanned, bucketStart, instantAfter, TIME_MAX } from '../../functions/media-log/model/time-buckets';
import { keyAfter, keyBefore } from '../../functions/shared/listing/key-window';

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
    expect(bucketsSpanned('hour', '2026-01-01T03:17:00.000Z', '2026-01-02T00:00:00.000Z')).toBe(21);
    expect(bucketsSpanned('day', '2026-01-20T00:00:00.000Z', '2026-02-01T00:00:00.000Z')).toBe(12);
    expect(instantAfter('9999-12-31T23:59:59.999Z')).toBe(TIME_MAX);
  });
});

describe('send keys', () => {
  const key = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0');

  it('bounds "strictly before" and "strictly after" a key with inclusive bounds', () => {
    const before = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ef');
    const after = sendKey('2026-01-10T14:30:00.000Z', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f1');
    expect([before <= keyBefore(key), key <= keyBefore(key), key >= keyAfter(key), after >= keyAfter(key)]).toEqual([true, false, false, true]);
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
