import { parseAvatarObjectKey, type AvatarObjectName } from './avatar-object-key';
import type { AvatarRepository } from './avatar-repository';
import type { AvatarStorage, StoredObject } from './avatar-storage';

/**
 * The sweep behind the avatar consistency promise. Uploads put the image object before they write
 * its record, and deletions delete the record before the object, so whatever fails or crashes in
 * between leaves at worst an object without a record — never a record without its object. This
 * sweep lists the avatar objects and deletes those that no record points at.
 */

/** Objects younger than this are spared: their upload may still be writing the record. */
export const DEFAULT_RECONCILE_GRACE_MS = 60 * 60 * 1000;

/** Options of {@link reconcileAvatarObjects}. */
export interface ReconcileOptions {
  /** Age below which an object is spared (default one hour, far beyond an upload's 28 s). */
  readonly graceMs?: number;
  readonly now?: Date;
}

/** What a sweep found and did. */
export interface ReconcileReport {
  /** Objects listed under the avatar prefix. */
  readonly examined: number;
  /** Keys of the objects deleted for want of a record. */
  readonly deleted: readonly string[];
  /** Objects too young to judge. */
  readonly spared: number;
  /** Keys under the prefix that this service does not write; left alone and reported. */
  readonly foreign: readonly string[];
}

type Candidate = AvatarObjectName & { readonly key: string };

function candidatesOf(page: readonly StoredObject[], cutoff: number, foreign: string[]): { candidates: Candidate[]; spared: number } {
  const candidates: Candidate[] = [];
  let spared = 0;
  for (const object of page) {
    const name = parseAvatarObjectKey(object.key);
    if (name === null) foreign.push(object.key);
    else if (object.lastModified.getTime() > cutoff) spared += 1;
    else candidates.push({ ...name, key: object.key });
  }
  return { candidates, spared };
}

/**
 * Deletes the avatar objects that no record points at, a listing page at a time. Needs
 * `s3:ListBucket` on the avatar prefix besides the routes' object permissions.
 */
export async function reconcileAvatarObjects(
  storage: AvatarStorage,
  avatars: AvatarRepository,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceMs ?? DEFAULT_RECONCILE_GRACE_MS);
  const deleted: string[] = [];
  const foreign: string[] = [];
  let examined = 0;
  let spared = 0;
  for await (const page of storage.list()) {
    examined += page.length;
    const found = candidatesOf(page, cutoff, foreign);
    spared += found.spared;
    const recorded = await avatars.recordedObjectKeys(found.candidates);
    for (const candidate of found.candidates.filter((entry) => !recorded.has(entry.key))) {
      await storage.delete(candidate.key);
      deleted.push(candidate.key);
    }
  }
  return { examined, deleted, spared, foreign };
}
