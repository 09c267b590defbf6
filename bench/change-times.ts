/**
 * When each applied change of an entry was acknowledged by the feed, written as deltas by the first
 * stage, and held by the counters, in the order of the entry's changes. A stage can fold a change
 * before the feed batch that wrote it is acknowledged (the whole batch is acknowledged at its end):
 * such a change's lag is 0, and it is still one of the samples.
 */
export class ChangeTimes {
  private readonly byEntry = new Map<string, { acknowledged: number[]; firstStage: number[]; counted: number[] }>();
  /** The entry ids of each first-stage batch's changes, by the sort key of its delta items: the sequence key of its last change (delta-items.ts). */
  private readonly inDeltas = new Map<string, string[]>();

  private of(id: string) {
    let times = this.byEntry.get(id);
    if (times === undefined) this.byEntry.set(id, (times = { acknowledged: [], firstStage: [], counted: [] }));
    return times;
  }

  public acknowledged(id: string, at: number): void {
    this.of(id).acknowledged.push(at);
  }

  /** A first-stage batch of `changes` (entry ids, in order) wrote its deltas at `at`, under the sort key `last`. */
  public firstStage(changes: readonly string[], last: string | undefined, at: number): void {
    for (const id of changes) this.of(id).firstStage.push(at);
    if (last !== undefined) this.inDeltas.set(last, [...(this.inDeltas.get(last) ?? []), ...changes]);
  }

  /** The second stage applied the delta item with sort key `sk` at `at`. */
  public counted(sk: string, at: number): void {
    const changes = this.inDeltas.get(sk);
    if (changes === undefined) return;
    this.inDeltas.delete(sk);
    for (const id of changes) this.of(id).counted.push(at);
  }

  /** Each acknowledged change's lag to `stage`, in milliseconds (0 when the stage came first). */
  public lags(stage: 'firstStage' | 'counted'): number[] {
    return [...this.byEntry.values()].flatMap((times) => times.acknowledged.flatMap((at, index) => {
      const done = times[stage][index];
      return done === undefined ? [] : [Math.max(0, done - at)];
    }));
  }
}
