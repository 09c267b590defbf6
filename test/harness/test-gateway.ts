import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { testSigningKey } from './invoke';

/** The local gateway a test talks to over HTTP, and how often it has run the authorizer. */
export interface TestGateway {
  readonly gateway: LocalGateway;
  /** Authorizer runs so far: a request answered from the cache adds none. */
  readonly authorizerCalls: () => number;
}

/**
 * The local gateway on a free loopback port, running the real authorizer against this test file's
 * signing key and caching its answers per token for `cacheSeconds` (API Gateway's default TTL unless
 * told otherwise), as `npm start` does.
 */
export async function startTestGateway(cacheSeconds = 300): Promise<TestGateway> {
  await testSigningKey();
  const authorizer = await loadAuthorizer();
  let calls = 0;
  const counted = async (...args: Parameters<typeof authorizer>): Promise<APIGatewayAuthorizerResult> => {
    calls += 1;
    return authorizer(...args);
  };
  return { gateway: await startGateway(new AuthorizerRunner(counted, cacheSeconds), 0), authorizerCalls: () => calls };
}
