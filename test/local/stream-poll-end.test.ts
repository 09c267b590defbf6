import { randomUUID } from 'node:crypto';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { MemoryCheckpoints } from '../../local/fold/checkpoints';
import { LocalStreamConsumer, streamsClient } from '../../local/fold/stream-consumer';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';

/**
 * A local poll ends at the shard's current end, as a Lambda poll without a batching window hands
 * over the records it found: a page holding less than GetRecords may return is that end. Waiting for
 * an empty page instead never ended a pass while the feed kept writing, and held the records read
 * back until a whole batch (10,000) had gathered: tens of seconds of fold lag under a steady feed.
 */

let seed = 50;
function entries(count: number) {
  seed += 1;
  return sampleMediaLogEntries(count, { userIds: [93_001], start: new Date('2026-07-01T00:00:00Z'), spanMs: 3_600_000, seed }).map((entry) => ({ ...entry, id: randomUUID() }));
}

it('hands over what a poll read at the shard\'s end while the table keeps writing, and ends the poll', async () => {
  // Every GetRecords but a poll's first finds one more entry written just before it (at most 20, so a
  // poll that reads on until an empty page ends too, with the wrong figures): the table does not rest.
  const streams = streamsClient();
  let getRecords = 0;
  let written = 0;
  let writing = true;
  streams.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetRecordsCommand') {
        getRecords += 1;
        if (writing && getRecords > 1 && written < 20) {
          written += 1;
          await writeMediaLogEntries(entries(1));
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'writeBeforeEachRead' },
  );
  const batches: number[] = [];
  const consumer = new LocalStreamConsumer(foldMediaLogCountsFunction, new MemoryCheckpoints(), async (event) => {
    batches.push(event.Records.length);
  }, { streams });
  try {
    await writeMediaLogEntries(entries(30));

    const first = await consumer.drain();
    // Read: the 30 entries, and the two records of the item provisioning wrote and deleted to start
    // the stream (local/backends/table-provisioning.ts), which the consumer's filter drops.
    expect(first).toMatchObject({ read: 32, delivered: 30, batches: 1 });
    expect(getRecords).toBe(1);

    // The next poll finds the entry written meanwhile, and ends again at once.
    const second = await consumer.drain();
    expect(second).toMatchObject({ delivered: 1, batches: 1 });
    expect(batches).toEqual([30, 1]);
  } finally {
    writing = false;
    await consumer.stop();
  }
});

it('still gathers a backlog into batches of the batch size, not of a page', async () => {
  const batches: number[] = [];
  const consumer = new LocalStreamConsumer(foldMediaLogCountsFunction, new MemoryCheckpoints(), async (event) => {
    batches.push(event.Records.length);
  }, { batchSize: 2500 });
  try {
    await consumer.drain();
    batches.length = 0;
    await writeMediaLogEntries(entries(3200));
    const drained = await consumer.drain();
    // Pages of 1,000 records are full: the poll reads on, and cuts batches of 2,500 from what it gathered.
    expect(drained).toMatchObject({ delivered: 3200, batches: 2 });
    expect(batches).toEqual([2500, 700]);
  } finally {
    await consumer.stop();
  }
}, 120_000);
