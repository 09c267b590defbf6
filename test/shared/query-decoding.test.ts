import { decodeQuery, MAX_QUERY_VALUES } from '../../functions/shared/http/query-decoding';
import { ValidationError } from '../../functions/shared/errors';

/** The query as API Gateway hands it to a function: every key with all its values, in order. */
function multiValue(query: string): Record<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(query)) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return Object.fromEntries(grouped);
}

const decode = (query: string) => decodeQuery(multiValue(query), null);

function failure(query: string): unknown {
  try {
    decode(query);
  } catch (error) {
    return error;
  }
  throw new Error(`${query} was accepted`);
}

describe('decodeQuery array encodings', () => {
  it.each([
    'status=a&status=b',
    'status[]=a&status[]=b',
    'status[0]=a&status[1]=b',
    'status[1]=b&status[0]=a',
    'status=a&status[]=b',
  ])('%s decodes to the array [a, b]', (query) => {
    expect(decode(query)).toEqual({ status: ['a', 'b'] });
  });

  it('keeps a comma list as one value for the schema to split, however it is keyed', () => {
    expect(decode('status=a,b')).toEqual({ status: 'a,b' });
    expect(decode('status[]=a,b')).toEqual({ status: 'a,b' });
    expect(decode('status[0]=a,b')).toEqual({ status: 'a,b' });
  });

  it('orders indexed values by index, numerically', () => {
    const query = Array.from({ length: 12 }, (_, index) => `id[${11 - index}]=${11 - index}`).join('&');
    expect(decode(query)).toEqual({ id: Array.from({ length: 12 }, (_, index) => String(index)) });
  });

  it('reads objects in the deepObject style beside arrays', () => {
    expect(decode('sort[field]=send&sort[order]=asc&status[]=a')).toEqual({ sort: { field: 'send', order: 'asc' }, status: 'a' });
  });
});

describe('decodeQuery refusals', () => {
  it.each([
    ['status=a&status[field]=b', 'status'],
    ['sort[field]=send&sort[]=asc', 'sort'],
    ['sort[0]=send&sort[order]=asc', 'sort'],
    ['status[100]=a', 'status[100]'],
    ['status[-1]=a', 'status[-1]'],
    ['status[a][b]=c', 'status[a][b]'],
    ['status[ ]=a', 'status[ ]'],
  ])('%s is refused, naming %s', (query, name) => {
    const error = failure(query);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors!.map((item) => item.name)).toEqual([name]);
  });

  it.each([
    ['repeated keys', (index: number) => `status=${index}`],
    ['brackets', (index: number) => `status[]=${index}`],
    ['indices and repeats together', (index: number) => (index % 2 === 0 ? `status[${index % 100}]=${index}` : `status=${index}`)],
  ])(`refuses more than ${MAX_QUERY_VALUES} values written as %s`, (_, write) => {
    const query = Array.from({ length: MAX_QUERY_VALUES + 1 }, (_, index) => write(index)).join('&');
    const error = failure(query);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors!.map((item) => item.name)).toEqual(['status']);
  });

  it('keeps __proto__ a plain (unknown) parameter in every form', () => {
    for (const query of ['__proto__[]=x', '__proto__[0]=x', '__proto__[polluted]=x']) {
      const decoded = decode(query);
      expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
      expect(Object.keys(decoded)).toEqual(['__proto__']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});
