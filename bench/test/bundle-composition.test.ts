import type { Metafile } from 'esbuild';
import { breakdownAboveFloor, FLOOR_ONLY_GROUP, GLUE_GROUP, partGroups, PRODUCT_GROUP } from '../bundle-breakdown';
import { packageOf, productClosure, sdkClientsUsed } from '../bundle-composition';

/**
 * The metafile arithmetic of the bundles bench on a bundle small enough to work out by hand: a
 * handler whose shared module imports DynamoDB (document client too), S3 (shaken out) and a
 * presigner, with a tracer that pulls in the X-Ray SDK, a logger sharing Powertools' commons with
 * it, and zod; against a floor of the DynamoDB document client alone. Packages sit behind the
 * `../main/node_modules` link, as in a worktree.
 */

const NM = '../main/node_modules';

/** One input: bytes it puts in the bundle, and what it imports (paths; `external:` marks an external import). */
interface FakeInput {
  readonly bytes: number;
  readonly imports?: readonly string[];
}

const GLUE = 300;

function metafile(inputs: Readonly<Record<string, FakeInput>>, keptExternal: readonly string[] = []): Metafile {
  const record = (path: string) => (path.startsWith('external:') ? { path: path.slice('external:'.length), kind: 'import-statement' as const, external: true } : { path, kind: 'import-statement' as const });
  const total = Object.values(inputs).reduce((sum, input) => sum + input.bytes, 0);
  return {
    inputs: Object.fromEntries(Object.entries(inputs).map(([path, input]) => [path, { bytes: input.bytes * 3, imports: (input.imports ?? []).map(record) }])),
    outputs: {
      'out/index.mjs.map': { bytes: 1, inputs: {}, imports: [], exports: [] },
      'out/index.mjs': {
        bytes: total + GLUE,
        inputs: Object.fromEntries(Object.entries(inputs).map(([path, input]) => [path, { bytesInOutput: input.bytes }])),
        imports: keptExternal.map((path) => ({ path, kind: 'import-statement' as const, external: true })),
        exports: ['handler'],
        entryPoint: 'functions/things/handler.ts',
      },
    },
  };
}

const BUNDLE = metafile({
  'functions/things/handler.ts': { bytes: 2000, imports: ['functions/shared/aws/clients.ts', 'functions/shared/unused.ts', `${NM}/@aws-lambda-powertools/tracer/index.js`, `${NM}/@aws-lambda-powertools/logger/index.js`, `${NM}/zod/index.js`] },
  'functions/shared/aws/clients.ts': { bytes: 500, imports: [`${NM}/@aws-sdk/client-dynamodb/index.js`, `${NM}/@aws-sdk/lib-dynamodb/index.js`, `${NM}/@aws-sdk/client-s3/index.js`, `${NM}/@aws-sdk/s3-presigned-post/index.js`] },
  'functions/shared/unused.ts': { bytes: 0 },
  [`${NM}/@aws-sdk/client-dynamodb/index.js`]: { bytes: 10_000, imports: [`${NM}/@smithy/core/index.js`] },
  [`${NM}/@aws-sdk/lib-dynamodb/index.js`]: { bytes: 1000, imports: [`${NM}/@aws-sdk/client-dynamodb/index.js`] },
  [`${NM}/@aws-sdk/client-s3/index.js`]: { bytes: 0, imports: [`${NM}/@smithy/core/index.js`] },
  [`${NM}/@aws-sdk/s3-presigned-post/index.js`]: { bytes: 800, imports: [`${NM}/@smithy/core/index.js`] },
  [`${NM}/@smithy/core/index.js`]: { bytes: 20_000 },
  [`${NM}/@aws-lambda-powertools/tracer/index.js`]: { bytes: 3000, imports: [`${NM}/aws-xray-sdk-core/index.js`, `${NM}/@aws-lambda-powertools/commons/index.js`] },
  [`${NM}/aws-xray-sdk-core/index.js`]: { bytes: 7000, imports: [`${NM}/aws-xray-sdk-core/node_modules/semver/index.js`] },
  [`${NM}/aws-xray-sdk-core/node_modules/semver/index.js`]: { bytes: 3000 },
  [`${NM}/@aws-lambda-powertools/logger/index.js`]: { bytes: 2000, imports: [`${NM}/@aws-lambda-powertools/commons/index.js`] },
  [`${NM}/@aws-lambda-powertools/commons/index.js`]: { bytes: 500 },
  [`${NM}/zod/index.js`]: { bytes: 4000 },
});

const FLOOR = metafile({
  'floor.mjs': { bytes: 100, imports: [`${NM}/@aws-sdk/client-dynamodb/index.js`, `${NM}/@aws-sdk/lib-dynamodb/index.js`] },
  [`${NM}/@aws-sdk/client-dynamodb/index.js`]: { bytes: 9500, imports: [`${NM}/@smithy/core/index.js`] },
  [`${NM}/@aws-sdk/lib-dynamodb/index.js`]: { bytes: 900, imports: [`${NM}/@aws-sdk/client-dynamodb/index.js`] },
  [`${NM}/@smithy/core/index.js`]: { bytes: 20_000 },
});

describe('the composition of a bundle', () => {
  it('names the innermost package of an input, and none for the project files', () => {
    expect([packageOf(`${NM}/aws-xray-sdk-core/node_modules/semver/index.js`), packageOf(`${NM}/@smithy/core/dist/x.js`), packageOf('functions/shared/logger.ts')]).toEqual(['semver', '@smithy/core', undefined]);
  });

  it('counts the product files with code in the bundle and their lines, and the ones shaken out whole', () => {
    expect(productClosure(BUNDLE, (path) => path.length)).toEqual({ files: 2, lines: 'functions/things/handler.ts'.length + 'functions/shared/aws/clients.ts'.length, shaken: 1 });
  });

  it('finds the SDK clients the product code uses, not a client shaken out nor a helper', () => {
    expect(sdkClientsUsed(BUNDLE)).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb']);
  });

  it('finds a client left to the runtime only when its import survives in the bundle', () => {
    const inputs = { 'functions/things/handler.ts': { bytes: 100, imports: ['external:@aws-sdk/client-dynamodb', 'external:@aws-sdk/client-s3'] } };
    expect(sdkClientsUsed(metafile(inputs, ['@aws-sdk/client-dynamodb']))).toEqual(['@aws-sdk/client-dynamodb']);
  });
});

describe('what a bundle holds above its floor', () => {
  it('groups a package with the one that alone pulls it in, and names the packages sharing one', () => {
    const groups = partGroups(BUNDLE);
    expect({
      semver: groups.get('semver'),
      xray: groups.get('aws-xray-sdk-core'),
      commons: groups.get('@aws-lambda-powertools/commons'),
      smithy: groups.get('@smithy/core'),
      presigner: groups.get('@aws-sdk/s3-presigned-post'),
      shared: groups.get('functions/shared'),
    }).toEqual({
      semver: '@aws-lambda-powertools/tracer',
      xray: '@aws-lambda-powertools/tracer',
      commons: 'shared: @aws-lambda-powertools/logger, @aws-lambda-powertools/tracer',
      smithy: 'AWS SDK',
      presigner: 'AWS SDK',
      shared: PRODUCT_GROUP,
    });
  });

  it('gives each group its bytes over the floor, the largest first, adding up to the bundle minus the floor', () => {
    const groups = breakdownAboveFloor(BUNDLE, FLOOR);
    const above = Object.fromEntries(groups.map((group) => [group.group, group.aboveFloor]));
    expect(groups[0]?.group).toBe('@aws-lambda-powertools/tracer');
    expect(above).toEqual({
      '@aws-lambda-powertools/tracer': 13_000,
      zod: 4000,
      [PRODUCT_GROUP]: 2500,
      '@aws-lambda-powertools/logger': 2000,
      'AWS SDK': 500 + 100 + 800,
      'shared: @aws-lambda-powertools/logger, @aws-lambda-powertools/tracer': 500,
      [GLUE_GROUP]: 0,
      [FLOOR_ONLY_GROUP]: -100,
    });
    const sum = groups.reduce((total, group) => total + group.aboveFloor, 0);
    expect(sum).toBe((BUNDLE.outputs['out/index.mjs']?.bytes ?? 0) - (FLOOR.outputs['out/index.mjs']?.bytes ?? 0));
  });
});
