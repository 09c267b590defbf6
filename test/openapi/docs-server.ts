import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveDocs } from '../../local/gateway/docs-page';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';

/**
 * The local gateway with the documentation page in front, as the gateway serves it once
 * `serveDocs` is called from its dispatch: docs paths answered by `serveDocs`, every other request
 * passed through to a real gateway on another loopback port.
 */
export interface DocsServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

function passThrough(gateway: LocalGateway, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const upstream = httpRequest(
    { host: '127.0.0.1', port: gateway.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
}

/** Start the gateway (the real authorizer, without caching) and the docs front on 127.0.0.1. */
export async function startDocsServer(): Promise<DocsServer> {
  const gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
  const server: Server = createServer((incoming, outgoing) => {
    const docs = serveDocs(incoming.method ?? 'GET', (incoming.url ?? '/').split('?')[0] as string);
    if (!docs) {
      passThrough(gateway, incoming, outgoing);
      return;
    }
    outgoing.writeHead(docs.statusCode, { ...docs.headers, 'content-length': String(docs.body.byteLength) });
    outgoing.end(docs.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
    },
  };
}
