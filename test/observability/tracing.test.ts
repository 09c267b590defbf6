import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { getDocumentClient, getS3Client } from '../../functions/shared/aws/clients';
import { tracingEnabled } from '../../functions/shared/observability/tracing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployedFunctions, writeBundle, type WrittenBundle } from '../../local/lambda/function-bundles';
import { SETTINGS_DEFAULTS } from '../../lib/stack-settings';
import { proxyEvent, routeAnswer, useDeployedBundles } from '../bundles/deployed-bundles-harness';
import { SMALL_CROP, useAvatarTestBed } from '../avatars/routes/test-bed';
import { createTestUser } from '../harness/users';
import { DEPLOYED_SDK_SOURCE, TRACING_ENV, tracingDefines } from '../../lib/function-bundling';

/**
 * X-Ray sees every DynamoDB and S3 call of a function deployed with tracing on; a function deployed
 * without it carries no X-Ray code; nothing is traced locally.
 * The deployed bundles run as Lambda runs them (bench/lambda-process.ts) with a sampled trace header
 * and the X-Ray daemon address pointing at a UDP socket of this test on 127.0.0.1: the subsegments
 * the X-Ray SDK sends are read there, so no packet leaves this machine. In-process (the local
 * gateway, `invoke`, these tests), tracing is off: the clients carry no X-Ray middleware and no
 * datagram is sent at all.
 */

const TRACED = ['getCurrentUser', 'uploadCurrentAvatar'] as const;
const bed = useAvatarTestBed();
// Built and run as the stack deploys them with `-c tracing=true`: the bundle and the environment say so.
const deployed = useDeployedBundles(TRACED, (options) => ({ ...options, define: { ...options.define, ...tracingDefines(true) } }));

/** A UDP socket on loopback standing in for the X-Ray daemon, keeping every document it receives. */
async function startDaemon() {
  const socket = dgram.createSocket('udp4');
  const documents: Record<string, any>[] = [];
  socket.on('message', (message) => {
    // Each datagram: the protocol header line, then one segment or subsegment document.
    const [, body] = message.toString('utf8').split('\n', 2);
    if (body) documents.push(JSON.parse(body) as Record<string, any>);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(socket.address() as AddressInfo).port}`, documents, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** A sampled X-Ray trace header, as Lambda sets `_X_AMZN_TRACE_ID` for an invocation of a traced request. */
function traceHeader(): { header: string; root: string } {
  const root = `1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
  return { header: `Root=${root};Parent=${randomBytes(8).toString('hex')};Sampled=1`, root };
}

/** Invoke a traced bundle on a route's event, with the trace header and the daemon address. */
async function invokeTraced(name: (typeof TRACED)[number], event: unknown, daemonAddress: string, header: string) {
  const fn = deployedFunctions().find((candidate) => candidate.name === name);
  if (!fn) throw new Error(`${name} is not deployed.`);
  return deployed.invoke(fn, deployed.bundles.get(name)!, event, {
    [TRACING_ENV]: 'true',
    _X_AMZN_TRACE_ID: header,
    AWS_XRAY_DAEMON_ADDRESS: daemonAddress,
    AVATAR_FETCH_ALLOW_HOSTS: bed.source.server.hostPort,
  });
}

/** `service operation` of every AWS call subsegment of a trace, in the order received. */
function awsCalls(documents: readonly Record<string, any>[], root: string): string[] {
  return documents.filter((document) => document.trace_id === root && document.namespace === 'aws').map((document) => `${document.name} ${document.aws?.operation}`);
}

describe('a deployed function with active tracing', () => {
  it('sends a subsegment for its DynamoDB read, to the daemon address it is given', async () => {
    const daemon = await startDaemon();
    const user = await createTestUser();
    const { header, root } = traceHeader();
    try {
      const answer = routeAnswer('getCurrentUser', await invokeTraced('getCurrentUser', await proxyEvent('getCurrentUser', {}, user), daemon.address, header));

      expect(answer.status).toBe(200);
      expect(awsCalls(daemon.documents, root)).toContain('DynamoDB GetItem');
      const read = daemon.documents.find((document) => document.aws?.operation === 'GetItem');
      expect(read).toMatchObject({ type: 'subsegment', trace_id: root, aws: { table_name: expect.any(String) } });
    } finally {
      await daemon.close();
    }
  });

  it('sends a subsegment for its S3 upload and its DynamoDB calls', async () => {
    const daemon = await startDaemon();
    const user = await createTestUser();
    const { header, root } = traceHeader();
    try {
      const event = await proxyEvent('uploadCurrentAvatar', { body: { avatar: bed.photoUrl, crop: SMALL_CROP } }, user);
      const answer = routeAnswer('uploadCurrentAvatar', await invokeTraced('uploadCurrentAvatar', event, daemon.address, header));

      expect(answer.status).toBe(201);
      const calls = awsCalls(daemon.documents, root);
      expect(calls).toContain('S3 PutObject');
      expect(calls).toContain('DynamoDB GetItem');
    } finally {
      await daemon.close();
    }
  });
});

/** Whether a bundle carries the X-Ray SDK: any input of it from `aws-xray-sdk-core`. */
function holdsXRay(bundle: WrittenBundle): boolean {
  return Object.keys(bundle.metafile.inputs).some((input) => input.includes('node_modules/aws-xray-sdk-core/'));
}

describe('the tracing setting', () => {
  it('leaves the X-Ray SDK out of a bundle built without tracing, the stack\'s default', async () => {
    const fn = deployedFunctions().find((candidate) => candidate.name === 'getCurrentUser')!;
    const folder = await mkdtemp(join(tmpdir(), 'untraced-'));
    try {
      const untraced = await writeBundle(fn, folder, DEPLOYED_SDK_SOURCE);

      expect(SETTINGS_DEFAULTS.tracing).toBe(false);
      expect(holdsXRay(untraced)).toBe(false);
      expect(holdsXRay(deployed.bundles.get('getCurrentUser')!)).toBe(true);
      expect(untraced.bytes).toBeLessThan(deployed.bundles.get('getCurrentUser')!.bytes - 100_000);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('in-process, as the local gateway runs the functions', () => {
  it('traces nothing: no X-Ray middleware on the clients, no datagram sent', async () => {
    const send = jest.spyOn(dgram.Socket.prototype, 'send');
    try {
      const user = await createTestUser();
      const response = await bed.upload(user);

      expect(response.status).toBe(201);
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
    expect(tracingEnabled()).toBe(false);
    for (const client of [getDocumentClient(), getS3Client()]) {
      expect(client.middlewareStack.identify().filter((name) => /xray/i.test(name))).toEqual([]);
    }
  });
});
