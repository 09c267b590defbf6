/**
 * `items` cut into consecutive chunks of at most `size`, in order: the shape of DynamoDB's batch
 * calls (100 keys per BatchGetItem, 25 items per BatchWriteItem).
 */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}
