import { connect, type Socket } from 'node:net';
import { type BackendChild, startDynamoDbLocal } from '../../local/backends/index';

/**
 * DynamoDB Local's listening socket holds a flood of connections while the JVM is too busy to accept
 * them. The functions give a connection 1 s (CLIENT_LIMITS), and Linux drops a SYN its accept queue
 * has no room for, to be sent again only a second later: with Java's default queue of 50, a test's
 * burst of concurrent requests on a loaded machine failed with the SDK's connection timeout.
 */

/** More connections than Java's default queue (50), fewer than the launcher's (1024). */
const FLOOD = 300;
/** Far longer than a loopback handshake; a dropped SYN is not answered before 1 s, and never while the queue stays full. */
const CONNECT_WAIT_MS = 3000;

/** Opens `count` connections to `port` and resolves with how many were established within `waitMs`. */
async function connectionsEstablished(port: number, count: number, waitMs: number): Promise<{ established: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  let established = 0;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    for (let index = 0; index < count; index += 1) {
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      socket.once('connect', () => {
        established += 1;
        if (established === count) {
          clearTimeout(timer);
          resolve();
        }
      });
      sockets.push(socket);
    }
  });
  return { established, sockets };
}

describe('DynamoDB Local on loopback', () => {
  let dynamodb: BackendChild;

  beforeAll(async () => {
    dynamodb = await startDynamoDbLocal({ inMemory: true });
  }, 60_000);

  afterAll(async () => {
    await dynamodb?.stop();
  });

  it(`queues ${FLOOD} connections in the kernel while it accepts none (its process stopped)`, async () => {
    const port = Number(new URL(dynamodb.endpoint).port);
    // A stopped JVM accepts nothing: every connection established is one the kernel queued for it.
    process.kill(dynamodb.pid, 'SIGSTOP');
    let sockets: Socket[] = [];
    try {
      const flood = await connectionsEstablished(port, FLOOD, CONNECT_WAIT_MS);
      sockets = flood.sockets;
      expect(flood.established).toBe(FLOOD);
    } finally {
      process.kill(dynamodb.pid, 'SIGCONT');
      for (const socket of sockets) socket.destroy();
    }
    // And it still answers once it runs again.
    const answer = await fetch(dynamodb.endpoint);
    expect(answer.status).toBeLessThan(500);
  }, 60_000);
});
