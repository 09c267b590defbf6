import { readFileSync } from 'node:fs';
import { tables } from '../../functions/shared/tables/index';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { synthesizeStack, tableLogicalId } from './stack-fixture';

/**
 * What an update from the previous release asks of CloudFormation, checked on the synthesized
 * templates: the previous release's tables (`test/fixtures/previous-release-tables.json`, read off
 * its template) against this one's. CloudFormation creates or deletes one global secondary index of
 * a table per update and changes no table's key schema in place, so a table kept under its logical
 * id may differ from its previous self by one index at most; a layout that needs more is a new
 * table (a new logical id), and the table it replaces must be retained, its data left for
 * `media-log migrate` (docs/operations.md, "Upgrading the media log").
 */

interface TableShape {
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
  readonly KeySchema: unknown;
  readonly GlobalSecondaryIndexes: readonly { readonly IndexName: string; readonly KeySchema: unknown; readonly Projection: unknown }[];
}

const previous = JSON.parse(readFileSync(new URL('../fixtures/previous-release-tables.json', import.meta.url), 'utf8')) as Record<string, TableShape>;
const { stack, template } = synthesizeStack();
const current = Object.fromEntries(
  Object.entries(template.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string; Properties: Record<string, any> }>)
    .filter(([, resource]) => resource.Type === 'AWS::DynamoDB::Table')
    .map(([id, resource]) => [id, { DeletionPolicy: resource.DeletionPolicy, UpdateReplacePolicy: resource.UpdateReplacePolicy, KeySchema: resource.Properties.KeySchema, GlobalSecondaryIndexes: resource.Properties.GlobalSecondaryIndexes ?? [] }]),
) as Record<string, TableShape>;

/** The indexes created and deleted from `before` to `after`: an index whose keys or projection changed is both. */
function indexChanges(before: TableShape, after: TableShape): string[] {
  const shape = (index: TableShape['GlobalSecondaryIndexes'][number]) => JSON.stringify({ name: index.IndexName, keys: index.KeySchema, projection: index.Projection });
  const [was, is] = [new Set(before.GlobalSecondaryIndexes.map(shape)), new Set(after.GlobalSecondaryIndexes.map(shape))];
  return [...[...was].filter((index) => !is.has(index)).map((index) => `delete ${index}`), ...[...is].filter((index) => !was.has(index)).map((index) => `create ${index}`)];
}

describe('an update from the previous release', () => {
  it.each(Object.keys(current).filter((id) => previous[id] !== undefined))('keeps the key schema of table %s and changes one of its indexes at most', (id) => {
    const [before, after] = [previous[id] as TableShape, current[id] as TableShape];
    expect(after.KeySchema).toEqual(before.KeySchema);
    expect(indexChanges(before, after).length).toBeLessThanOrEqual(1);
  });

  it('leaves the data of every table it replaces: each was retained on removal', () => {
    const removed = Object.keys(previous).filter((id) => current[id] === undefined);
    expect(removed.length).toBeGreaterThan(0);
    for (const id of removed) expect({ id, deletion: previous[id]?.DeletionPolicy, replacement: previous[id]?.UpdateReplacePolicy }).toEqual({ id, deletion: 'Retain', replacement: 'Retain' });
  });

  it('makes the media log\'s new layout new tables, with every index from their creation, and retains them in turn', () => {
    for (const definition of tables.filter((table) => table.layout !== undefined && table.layout > 1)) {
      const id = tableLogicalId(stack, definition);
      expect(previous[id]).toBeUndefined();
      expect(current[id]?.GlobalSecondaryIndexes.map((index) => index.IndexName)).toEqual(definition.indexes.map((index) => index.indexName));
      expect(current[id]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    }
  });

  it('would have asked CloudFormation for more than one index change had the media log table been updated in place', () => {
    const [old] = Object.entries(previous).filter(([id]) => id.startsWith('DataMediaLog') && !id.startsWith('DataMediaLogCounts'));
    const replacement = tableLogicalId(stack, mediaLogTable);
    expect(indexChanges(old?.[1] as TableShape, current[replacement] as TableShape).length).toBeGreaterThan(1);
  });
});
