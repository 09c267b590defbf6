import { PRODUCT_GROUP, SDK_GROUP } from '../bundle-breakdown';
import { benchBundleSizes, type FunctionComposition } from '../bundle-size';
import { ANSWERED, deployFloorToLayout, expectedOutcomes, floorOf, floorSource, REFUSED, type Floor } from '../floor-bundle';
import { deployedConfiguration } from '../init-rounds';
import { createLambdaLayout, type LambdaLayout } from '../../local/lambda/lambda-layout';
import { invokeBundle, lambdaEnvironment } from '../../local/lambda/lambda-process';
import { DEPLOYED_SDK_SOURCE } from '../../lib/function-bundling';

/**
 * The floors the bundles and cold-start benches measure every function against: built from the
 * clients each deployed function's bundle really uses, they carry the same SDK code as the function
 * and nothing of ours, and they do send their one command per client (to a closed port on
 * 127.0.0.1: each answers a refused connection) and, with sharp, make an image.
 */

const BUILD_TIMEOUT_MS = 180_000;

describe('the floor of every deployed function', () => {
  let rows: FunctionComposition[] = [];

  beforeAll(async () => {
    rows = await benchBundleSizes();
  }, BUILD_TIMEOUT_MS);

  it('carries the AWS SDK code of the function within 10 KB, and none of our code', () => {
    const sdkAboveFloor = rows.map((row) => ({ name: row.name, kb: Math.round((row.breakdown.find((group) => group.group === SDK_GROUP)?.aboveFloor ?? 0) / 1024) }));
    const ourCodeInFloor = rows.filter((row) => (row.breakdown.find((group) => group.group === PRODUCT_GROUP)?.floorBytes ?? 0) > 0);
    expect(sdkAboveFloor.filter((row) => Math.abs(row.kb) > 10)).toEqual([]);
    expect(ourCodeInFloor).toEqual([]);
  });
});

describe('a floor', () => {
  let layout: LambdaLayout;

  beforeAll(async () => {
    layout = await createLambdaLayout({ runtimeSdk: false });
  });

  afterAll(async () => {
    await layout.remove();
  });

  async function invokeFloor(floor: Floor): Promise<unknown> {
    const written = await deployFloorToLayout(layout, floor, DEPLOYED_SDK_SOURCE);
    const environment = lambdaEnvironment('floor', written.folder, deployedConfiguration());
    const invocation = await invokeBundle(written.folder, environment, { event: {}, context: { deadlineMs: Date.now() + 20_000 } });
    return invocation.result ?? invocation.error;
  }

  it('sends one command per client, each refused by the closed loopback port, and makes an image with sharp', async () => {
    const floor = floorOf(['@aws-sdk/client-s3', '@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'], true);
    expect(expectedOutcomes(floor)).toEqual([REFUSED, REFUSED, ANSWERED]);
    expect(await invokeFloor(floor)).toEqual(expectedOutcomes(floor));
  }, 60_000);

  it('finds the client and a read command of a client package it has no recipe for', async () => {
    const floor = floorOf(['@aws-sdk/client-cognito-identity-provider'], false);
    expect(await floorSource(floor)).toMatch(/import \{ CognitoIdentityProviderClient as Client0, (Get|Describe|List)\w*Command as Command0 \}/);
    expect(await invokeFloor(floor)).toEqual([REFUSED]);
  }, 60_000);

  it('creates the DynamoDB client that the document client wraps, even when the function imports only the document client', async () => {
    const source = await floorSource(floorOf(['@aws-sdk/lib-dynamodb'], false));
    expect(source).toContain('DynamoDBDocumentClient.from(new Client0(');
    expect(expectedOutcomes(floorOf(['@aws-sdk/lib-dynamodb'], false))).toEqual([REFUSED]);
  });

  it('is nothing but a handler when the function uses no SDK client', async () => {
    const floor = floorOf([], false);
    expect(floor.key).toBe('no SDK');
    expect(await invokeFloor(floor)).toEqual([]);
  }, 60_000);
});
