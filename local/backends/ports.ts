import { createServer } from 'node:net';
import { LocalBackendError, PortInUseError } from './errors';

/**
 * Ports and liveness checks for the local backends.
 */

/** The only address the local backends listen on: they hold unauthenticated data. */
export const LOOPBACK_HOST = '127.0.0.1';

/**
 * A port that is free on loopback right now. Only for launchers that cannot bind port 0
 * themselves (the stock DynamoDB Local launcher): another process could take it in between.
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK_HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A port held open on loopback until the server meant for it takes it over. */
export interface PortReservation {
  /** The port held: the one asked for, or the free one picked for 0. */
  readonly port: number;
  /** Lets go of the port, for its server to listen on it at once. */
  release(): Promise<void>;
}

/**
 * Holds `port` on loopback (0: a free one), so that a taken port is found before the back-ends
 * start rather than after, and nobody takes it while they do. `what` names the server in messages.
 * A client that connects meanwhile (a browser, a readiness poll) is disconnected at once: a
 * connection left open would keep the release, and with it the server's start, waiting forever.
 */
export function reservePort(port: number, what: string, hint: string): Promise<PortReservation> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new PortInUseError(what, port, hint));
      else if (error.code === 'EACCES') reject(new LocalBackendError(`${what} may not listen on port ${port} (permission denied): ${hint}.`, { cause: error }));
      else reject(error);
    });
    server.listen({ port, host: LOOPBACK_HOST, exclusive: true }, () => {
      const address = server.address();
      const held = typeof address === 'object' && address ? address.port : port;
      resolve({ port: held, release: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** The port of an `http://host:port` endpoint. */
export function endpointPort(endpoint: string): number {
  return Number(new URL(endpoint).port);
}

/** Whether an HTTP server answers at `endpoint` (any status: both backends answer `GET /`). */
export async function endpointAnswers(endpoint: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(endpoint, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
