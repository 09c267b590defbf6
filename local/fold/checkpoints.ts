import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sequenceKey } from '../../functions/media-log/fold/stream-changes';

/**
 * Where a local stream consumer has read to, per stream and shard: the sequence number of the last
 * record it delivered successfully. Lambda keeps this for an event source mapping; locally it is
 * kept in memory, and in a file of the data directory so that the next `npm start` (or CLI
 * command) resumes where the last one stopped. A checkpoint only ever moves forward. It is a place
 * to resume from, not what makes a record count once (the fold's watermarks do), so a checkpoint
 * that lags, because a process stopped mid-batch or another process wrote an older one, only makes
 * some records be read again.
 */
export interface CheckpointStore {
  get(streamArn: string, shardId: string): Promise<string | undefined>;
  set(streamArn: string, shardId: string, sequence: string): Promise<void>;
}

type Checkpoints = Record<string, Record<string, string>>;

function later(a: string | undefined, b: string): boolean {
  return a === undefined || sequenceKey(b) > sequenceKey(a);
}

/** Checkpoints held in memory only (tests, and a process that uses backends nobody keeps). */
export class MemoryCheckpoints implements CheckpointStore {
  private readonly positions: Checkpoints = {};

  public async get(streamArn: string, shardId: string): Promise<string | undefined> {
    return this.positions[streamArn]?.[shardId];
  }

  public async set(streamArn: string, shardId: string, sequence: string): Promise<void> {
    const stream = (this.positions[streamArn] ??= {});
    if (later(stream[shardId], sequence)) stream[shardId] = sequence;
  }
}

/** Checkpoints in a JSON file, read again before each write so that processes sharing it keep each other's progress. */
export class FileCheckpoints implements CheckpointStore {
  private readonly memory = new MemoryCheckpoints();

  public constructor(private readonly path: string) {}

  public async get(streamArn: string, shardId: string): Promise<string | undefined> {
    const stored = (await this.read())[streamArn]?.[shardId];
    if (stored !== undefined) await this.memory.set(streamArn, shardId, stored);
    return this.memory.get(streamArn, shardId);
  }

  public async set(streamArn: string, shardId: string, sequence: string): Promise<void> {
    await this.memory.set(streamArn, shardId, sequence);
    const all = await this.read();
    const stream = (all[streamArn] ??= {});
    const current = await this.memory.get(streamArn, shardId);
    if (current === undefined || !later(stream[shardId], current)) return;
    stream[shardId] = current;
    await mkdir(dirname(this.path), { recursive: true });
    // Write a whole new file and rename it over the old one: a reader never sees half a file.
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`);
    await rename(temporary, this.path);
  }

  private async read(): Promise<Checkpoints> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Checkpoints) : {};
    } catch (error) {
      // No file yet, or one cut short: start from what memory holds (the stream's start at worst).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return {};
      throw error;
    }
  }
}
