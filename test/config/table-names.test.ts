import { tables } from '../../functions/shared/tables';
import { TABLE_NAMES } from '../../functions/shared/tables/table-names';

/**
 * The data configuration reads the deployed table names from TABLE_NAMES, not from the table
 * definitions: every table the stack provisions must be there, and nothing else.
 */
describe('the table names the functions read', () => {
  it('are those of every table definition, one each', () => {
    const defined = tables.map(({ id, nameEnv, layout, layoutEnv }) => ({ id, nameEnv, layout, layoutEnv }));
    const named = Object.values(TABLE_NAMES).map((table) => ({ layout: undefined, layoutEnv: undefined, ...table }));

    expect(named).toEqual(expect.arrayContaining(defined));
    expect(named).toHaveLength(defined.length);
  });
});
