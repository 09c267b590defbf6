import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { StreamRecord } from '../../../functions/media-log/fold/stream-changes';
import { entryItem } from '../../../functions/media-log/model/entry-item';
import { mediaLogKeys } from '../../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';

/** Entries and the media log stream's records of their changes, made up for the fold's tests: each entry of a new user, each record at the next sequence number. */
export class EntryStream {
  public constructor(
    private user: number,
    private sequence: number,
    private readonly url: string,
  ) {}

  /** A user id no entry of this stream had yet. */
  public newUser(): number {
    return (this.user += 1);
  }

  /** The next sequence number. */
  public newSequence(): string {
    return String((this.sequence += 1));
  }

  /** A pending entry of a new user, as `overrides` change it. */
  public entry(overrides: Partial<MediaLogEntry> = {}): MediaLogEntry {
    return {
      id: randomUUID(),
      send: '2026-09-01T10:00:00.000Z',
      status: 'pending',
      'status-ffscan': 'pending',
      'status-mediainfo': 'pending',
      'status-scan-report': 'pending',
      url: this.url,
      'user-id': this.newUser(),
      ...overrides,
    };
  }

  /** A stream record of `after` replacing `before` (either absent), at the next sequence number. */
  public record(before: MediaLogEntry | undefined, after: MediaLogEntry | undefined): StreamRecord {
    return {
      eventName: before === undefined ? 'INSERT' : after === undefined ? 'REMOVE' : 'MODIFY',
      dynamodb: {
        Keys: marshall(mediaLogKeys.entry(((after ?? before) as MediaLogEntry).id)),
        ...(before ? { OldImage: marshall(entryItem(before)) } : {}),
        ...(after ? { NewImage: marshall(entryItem(after)) } : {}),
        SequenceNumber: this.newSequence(),
      },
    };
  }
}
