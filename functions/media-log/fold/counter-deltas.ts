import { comboAttribute, counterKeyId, entryCounterKeys, TOTAL_ATTRIBUTE, type CountedEntry } from '../model/counters';
import type { EntryChange } from './stream-changes';

/**
 * What changes of entries add to their counters: the pure arithmetic of the fold, shared by the
 * fold (count-fold.ts), the recount and the key-heat bench, which plays the design rate through it.
 */

/** What a set of changes adds to one counter item: its total and its status combinations (negative to take away). */
export interface CounterDelta {
  readonly key: { readonly pk: string; readonly sk: string };
  readonly counts: Map<string, number>;
}

/** Add `sign` times one entry to its counters in `deltas` (one per counter item). */
export function addEntryDelta(deltas: Map<string, CounterDelta>, entry: CountedEntry, sign: 1 | -1): void {
  const combo = comboAttribute(entry);
  for (const key of entryCounterKeys(entry)) {
    const id = counterKeyId(key);
    const delta = deltas.get(id) ?? { key, counts: new Map<string, number>() };
    delta.counts.set(TOTAL_ATTRIBUTE, (delta.counts.get(TOTAL_ATTRIBUTE) ?? 0) + sign);
    delta.counts.set(combo, (delta.counts.get(combo) ?? 0) + sign);
    deltas.set(id, delta);
  }
}

/** What the changes of a batch add to one counter item, change by change (the fold may need to skip some). */
export interface CounterChanges {
  readonly key: CounterDelta['key'];
  /** One part per change that touches the item, in stream order: its sequence number and counts. */
  readonly parts: { readonly sequence: string; readonly counts: ReadonlyMap<string, number> }[];
}

/**
 * The counter deltas of `changes`, per counter item and change: a new entry adds one to each of its
 * counters (its total and its status combination), a change takes the old entry away and adds the
 * new one (an entry re-keyed to another family moves between the two families' counters), a removal
 * takes it away. A change that moved nothing a counter counts (a redelivered
 * request, a status that kept its combination) contributes nothing.
 */
export function counterChanges(changes: readonly EntryChange[]): Map<string, CounterChanges> {
  const byCounter = new Map<string, CounterChanges>();
  for (const change of changes) {
    const deltas = new Map<string, CounterDelta>();
    if (change.before) addEntryDelta(deltas, change.before, -1);
    if (change.after) addEntryDelta(deltas, change.after, 1);
    for (const [id, { key, counts }] of deltas) {
      const moved = new Map([...counts].filter(([, value]) => value !== 0));
      if (moved.size === 0) continue;
      const entry = byCounter.get(id) ?? { key, parts: [] };
      entry.parts.push({ sequence: change.sequence, counts: moved });
      byCounter.set(id, entry);
    }
  }
  return byCounter;
}

/** The sum of `parts`' counts, attribute by attribute, without the attributes that sum to zero. */
export function summed(parts: CounterChanges['parts']): Map<string, number> {
  const sum = new Map<string, number>();
  for (const { counts } of parts) for (const [attribute, value] of counts) sum.set(attribute, (sum.get(attribute) ?? 0) + value);
  return new Map([...sum].filter(([, value]) => value !== 0));
}
