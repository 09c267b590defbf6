import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import { testSigningKey } from './invoke';

/**
 * The local gateway of a test file, over HTTP on loopback: the real authorizer (its answers cached
 * per token, as API Gateway does) in front of the real handlers, as `npm start` serves them.
 */

/** An answer read whole. */
export interface GatewayAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON; undefined when empty. */
  readonly json: any;
}

/** A running gateway and a way to call it. */
export interface GatewayUnderTest {
  /** Where the API is: `http://127.0.0.1:<port>`, without the prefix. */
  readonly baseUrl: string;
  /** Calls `path` (under the API prefix) with `token` as the bearer token, and reads the answer. */
  call(path: string, init?: RequestInit & { token?: string }): Promise<GatewayAnswer>;
}

/** Registers hooks that start the gateway before the file's tests and stop it after them. */
export function useLocalGateway(): GatewayUnderTest {
  let gateway: LocalGateway | undefined;
  beforeAll(async () => {
    await testSigningKey();
    gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 300), 0);
  });
  afterAll(async () => {
    await gateway?.close();
  });
  const baseUrl = (): string => {
    if (!gateway) throw new Error('The gateway starts in beforeAll.');
    return gateway.baseUrl;
  };
  return {
    get baseUrl() {
      return baseUrl();
    },
    async call(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set('authorization', `Bearer ${init.token}`);
      const response = await fetch(`${baseUrl()}${API_PREFIX}${path}`, { ...init, headers });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
    },
  };
}
