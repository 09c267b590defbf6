import { WATERMARK_PREFIX } from '../model/counters';
import { WATERMARK_RETENTION_SECONDS } from './stream-functions';

/**
 * The fold's stored watermarks, either stage's: the sequence key of the last record folded, `@`,
 * and when it was written (count-fold.ts, delta-fold.ts say how each stage uses them).
 */

/** The sequence key a stored watermark names (what precedes its `@`); either stage's watermark has this form. */
export function sequenceKeyOf(watermark: string): string {
  return watermark.slice(0, watermark.indexOf('@'));
}

/** When a stored watermark was written, in epoch seconds. */
function writtenAt(watermark: string): number {
  return Number(watermark.slice(watermark.indexOf('@') + 1));
}

/**
 * The watermarks of a counter item (attribute and stored value) older than
 * {@link WATERMARK_RETENTION_SECONDS} at `nowSeconds`: no record they cover can be delivered again,
 * so the fold removes them after a write. The fold runs it on the item a write returned, and the
 * key-heat bench on its simulated items.
 */
export function expiredWatermarks(item: Readonly<Record<string, unknown>>, nowSeconds: number): [string, string][] {
  const oldest = nowSeconds - WATERMARK_RETENTION_SECONDS;
  return Object.entries(item).filter((pair): pair is [string, string] => pair[0].startsWith(WATERMARK_PREFIX) && typeof pair[1] === 'string' && writtenAt(pair[1]) < oldest);
}

