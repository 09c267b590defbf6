import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Small HTTP servers on loopback for the fetch tests, each counting the connections it receives.
 */

/** A running test server. */
export interface LocalServer {
  readonly host: string;
  readonly port: number;
  /** `host:port`, as written in the allow list. */
  readonly hostPort: string;
  /** Base URL, `http://host:port`. */
  readonly origin: string;
  /** Connections accepted since the previous call (or the start), resetting the count. */
  takeConnections(): number;
  close(): Promise<void>;
}

/** Starts `handler` on `host` (default 127.0.0.1) and `port` (default: any free one). */
export function startServer(handler: http.RequestListener, host = '127.0.0.1', port = 0): Promise<LocalServer> {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        host,
        port: bound,
        hostPort: `${host}:${bound}`,
        origin: `http://${host}:${bound}`,
        takeConnections: () => {
          const taken = connections;
          connections = 0;
          return taken;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A port on 127.0.0.1 on which nothing listens (it was just freed). */
export async function freePort(): Promise<number> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.port;
}
