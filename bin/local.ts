import { API_PREFIX } from '../functions/shared/http/route-definition';
import { integerEnv } from '../local/environment-variables';
import { startBackends } from '../local/backends';
import { LocalBackendError } from '../local/backends/errors';
import { localDataDir, useLocalEnvironment } from '../local/environment';
import { AuthorizerRunner, loadAuthorizer } from '../local/gateway/authorizer-runner';
import { DOCS_PATH } from '../local/gateway/docs-page';
import { startGateway } from '../local/gateway/http-server';

/**
 * `npm start`: DynamoDB Local and the local S3 as child processes on 127.0.0.1, tables and bucket
 * created from the stack's definitions, and the local gateway running the real authorizer and
 * handlers in-process. Ctrl-C stops everything it started.
 */
async function main(): Promise<void> {
  const dataDir = localDataDir();
  const port = integerEnv('PORT', 3000);
  const backends = await startBackends({ dataDir });
  try {
    await useLocalEnvironment(dataDir, backends);
    const authorizer = new AuthorizerRunner(await loadAuthorizer(), integerEnv('AUTHORIZER_CACHE_TTL', 300));
    const gateway = await startGateway(authorizer, port);
    process.stdout.write(`Frontend API listening on ${gateway.baseUrl}${API_PREFIX}\n`);
    process.stdout.write(`Interactive documentation: ${gateway.baseUrl}${DOCS_PATH}\n`);
    const stop = async () => {
      await gateway.close();
      await backends.stop();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    await backends.stop();
    throw error;
  }
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof LocalBackendError) process.stderr.write(`${error.message}\n`);
  else if (code === 'EADDRINUSE') process.stderr.write(`Port ${process.env.PORT ?? 3000} is in use: stop what holds it or set PORT.\n`);
  else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
