import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { BACKEND_ENV, type BackendsState, BackendsAlreadyRunningError, connectOrStartBackends, JavaNotFoundError, type LocalBackends, PortInUseError, startBackends, startDynamoDbLocal, startLocalS3, stateFilePath } from '../../local/backends/index';
import { endpointAnswers, isProcessAlive, type PortReservation, reservePort } from '../../local/backends/ports';

/**
 * The local backends as `npm start`, the CLI and `invoke` use them: children on loopback, the state
 * file that lets processes share them, bring-your-own endpoints, restarts and one-line errors.
 */

const globalEndpoints = {
  dynamodb: process.env[BACKEND_ENV.dynamodbEndpoint] ?? '',
  s3: process.env[BACKEND_ENV.s3Endpoint] ?? '',
};
const dataDirs: string[] = [];

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'frontend-api-backends-'));
  dataDirs.push(dir);
  return dir;
}

/** Without the global endpoints in the environment, the functions under test start their own children. */
function withoutBringYourOwnEndpoints(): void {
  delete process.env[BACKEND_ENV.dynamodbEndpoint];
  delete process.env[BACKEND_ENV.s3Endpoint];
}

function restoreGlobalEndpoints(): void {
  process.env[BACKEND_ENV.dynamodbEndpoint] = globalEndpoints.dynamodb;
  process.env[BACKEND_ENV.s3Endpoint] = globalEndpoints.s3;
}

/** DynamoDB Local processes whose command line contains `marker` (other runs on the machine do not count). */
function dynamoDbLocalProcesses(marker: string): number[] {
  const listing = execFileSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal') && line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** DynamoDB Local processes started by this test process (in-band, that includes the global one). */
function ownDynamoDbLocalProcesses(): number[] {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n').map(Number);
  return dynamoDbLocalProcesses('').filter((pid) => children.includes(pid));
}

function dynamoDb(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local', secretAccessKey: 'local' } });
}

const quiet = { warn: () => undefined };

afterAll(async () => {
  restoreGlobalEndpoints();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a data directory served by startBackends', () => {
  let dataDir: string;
  let backends: LocalBackends;

  beforeAll(async () => {
    withoutBringYourOwnEndpoints();
    dataDir = await newDataDir();
    backends = await startBackends({ dataDir, ...quiet });
  });

  afterAll(async () => {
    await backends?.stop();
    restoreGlobalEndpoints();
  });

  it('records the children and their endpoints in <dataDir>/backends.json', async () => {
    const state = JSON.parse(await readFile(stateFilePath(dataDir), 'utf8')) as BackendsState;

    expect(state.backends.dynamodb.endpoint).toBe(backends.dynamodbEndpoint);
    expect(state.backends.s3.endpoint).toBe(backends.s3Endpoint);
    expect([state.backends.dynamodb.pid, state.backends.s3.pid].every((pid) => pid !== null && isProcessAlive(pid))).toBe(true);
  });

  it('lets connectOrStartBackends reuse them without starting a second DynamoDB Local', async () => {
    const second = await connectOrStartBackends(dataDir, quiet);
    await second.stop();

    expect(second).toMatchObject({ reused: true, started: [], dynamodbEndpoint: backends.dynamodbEndpoint, s3Endpoint: backends.s3Endpoint });
    expect(dynamoDbLocalProcesses(dataDir)).toHaveLength(1);
  });

  it('refuses to start a second set of backends on the same data directory', async () => {
    await expect(startBackends({ dataDir, ...quiet })).rejects.toBeInstanceOf(BackendsAlreadyRunningError);
  });

  it('keeps the reused backends running when the reusing process stops', async () => {
    const second = await connectOrStartBackends(dataDir, quiet);
    await second.stop();

    const tables = await dynamoDb(backends.dynamodbEndpoint).send(new ListTablesCommand({}));
    expect(tables.TableNames).toContain('Users');
  });

  it('listens on 127.0.0.1 only, not on all interfaces', async () => {
    const port = Number(new URL(backends.dynamodbEndpoint).port);
    // The kernel's socket table says where the port is bound, without sending a packet anywhere.
    const portHex = port.toString(16).toUpperCase().padStart(4, '0');
    const listening = ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${portHex}`))
      .map((fields) => fields[1]?.split(':')[0])
      // Java binds IPv4 as an IPv4-mapped IPv6 socket (::ffff:127.0.0.1): the same loopback address.
      .map((address) => address?.replace(/^0000000000000000FFFF0000/, ''));

    expect(listening).toEqual(['0100007F']);
  });
});

describe('stopping and restarting on a persistent data directory', () => {
  const item = { pk: { S: `USER#${randomBytes(4).toString('hex')}` }, sk: { S: 'PROFILE' } };
  let firstPids: number[];
  let stateFileAfterStop: boolean;
  let restarted: LocalBackends;

  beforeAll(async () => {
    withoutBringYourOwnEndpoints();
    const dataDir = await newDataDir();
    const first = await connectOrStartBackends(dataDir, quiet);
    const state = JSON.parse(await readFile(stateFilePath(dataDir), 'utf8')) as BackendsState;
    firstPids = [state.backends.dynamodb.pid ?? -1, state.backends.s3.pid ?? -1];
    await dynamoDb(first.dynamodbEndpoint).send(new PutItemCommand({ TableName: 'Users', Item: item }));
    await first.stop();
    stateFileAfterStop = existsSync(stateFilePath(dataDir));
    restarted = await connectOrStartBackends(dataDir, quiet);
    // Two cold starts of a persistent DynamoDB Local (full JIT) in a row: minutes on a loaded machine.
  }, 180_000);

  afterAll(async () => {
    await restarted?.stop();
    restoreGlobalEndpoints();
  });

  it('ends the children it started', () => {
    expect(firstPids.filter(isProcessAlive)).toEqual([]);
  });

  it('removes the state file', () => {
    expect(stateFileAfterStop).toBe(false);
  });

  it('finds the data written before the restart', async () => {
    const read = await dynamoDb(restarted.dynamodbEndpoint).send(new GetItemCommand({ TableName: 'Users', Key: item }));

    expect(read.Item).toEqual(item);
  });
});

describe('bring-your-own endpoints', () => {
  it('uses DYNAMODB_ENDPOINT and S3_ENDPOINT instead of starting children, and provisions there', async () => {
    restoreGlobalEndpoints();
    const before = ownDynamoDbLocalProcesses().length;

    const backends = await startBackends({ dataDir: await newDataDir(), naming: { prefix: 'byo-' }, ...quiet });
    await backends.stop();

    expect(backends).toMatchObject({ started: [], dynamodbEndpoint: globalEndpoints.dynamodb, s3Endpoint: globalEndpoints.s3 });
    expect(ownDynamoDbLocalProcesses()).toHaveLength(before);
    const table = await dynamoDb(globalEndpoints.dynamodb).send(new DescribeTableCommand({ TableName: 'byo-Users' }));
    expect(table.Table?.TableStatus).toBe('ACTIVE');
  });
});

describe('a child that ends on its own', () => {
  it('is reported in one warning line', async () => {
    restoreGlobalEndpoints();
    delete process.env[BACKEND_ENV.s3Endpoint];
    const dataDir = await newDataDir();
    const warnings: string[] = [];
    const backends = await startBackends({ dataDir, warn: (message) => warnings.push(message) });
    const state = JSON.parse(await readFile(stateFilePath(dataDir), 'utf8')) as BackendsState;

    process.kill(state.backends.s3.pid ?? -1, 'SIGKILL');
    for (let waited = 0; warnings.length === 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await backends.stop();
    restoreGlobalEndpoints();

    expect(warnings).toEqual([`local S3 (pid ${state.backends.s3.pid}) exited unexpectedly (SIGKILL); restart to get it back.`]);
  });
});

describe('the JVM compiler of DynamoDB Local', () => {
  const compilerFlags = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg.startsWith('-XX:'));

  it('is the quick one unless a long run asks for the full one', async () => {
    const quick = await startDynamoDbLocal({ inMemory: true });
    const full = await startDynamoDbLocal({ inMemory: true, compiler: 'full' });
    try {
      expect(compilerFlags(quick.pid)).toContain('-XX:TieredStopAtLevel=1');
      expect(compilerFlags(full.pid)).toEqual([]);
      expect(await endpointAnswers(full.endpoint, 5_000)).toBe(true);
    } finally {
      await Promise.all([quick.stop(), full.stop()]);
    }
  });
});

describe('a port reservation', () => {
  it('disconnects a client that connects while it holds the port, and lets go of the port', async () => {
    const reservation = await reservePort(0, 'the test', 'none');
    const client = connect(reservation.port, '127.0.0.1');
    await new Promise<void>((closed) => client.once('close', () => closed()));
    await reservation.release();
    const next = await reservePort(reservation.port, 'the test', 'none');
    await next.release();
  });
});

describe('start-up failures', () => {
  let blocker: PortReservation;
  let blockedPort: number;

  beforeAll(async () => {
    blocker = await reservePort(0, 'the test', 'none');
    blockedPort = blocker.port;
  });

  afterAll(() => blocker.release());

  it('explains a missing Java in one line', async () => {
    const start = startDynamoDbLocal({ inMemory: true, java: '/nonexistent/bin/java' });

    await expect(start).rejects.toBeInstanceOf(JavaNotFoundError);
    await expect(start).rejects.toThrow(/^Java 17\+ is needed for DynamoDB Local: install openjdk-17-jre-headless[^\n]*$/);
  });

  it('explains a DynamoDB Local port that is taken in one line', async () => {
    const start = startDynamoDbLocal({ inMemory: true, port: blockedPort });

    await expect(start).rejects.toBeInstanceOf(PortInUseError);
    await expect(start).rejects.toThrow(new RegExp(`^DynamoDB Local cannot listen on port ${blockedPort}: it is already in use[^\\n]*$`));
  });

  it('explains a local S3 port that is taken in one line', async () => {
    const start = startLocalS3({ directory: join(await newDataDir(), 's3'), port: blockedPort });

    await expect(start).rejects.toBeInstanceOf(PortInUseError);
    await expect(start).rejects.toThrow(new RegExp(`^local S3 cannot listen on port ${blockedPort}[^\\n]*$`));
  });
});
