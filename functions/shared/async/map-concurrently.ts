/**
 * `Promise.all(items.map(work))` with at most `concurrency` calls in flight: a listing of a family
 * of hundreds reads one counter partition per member, and hundreds of requests at once would only
 * queue on the client's sockets until their time limits ran out.
 */
export async function mapConcurrently<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
