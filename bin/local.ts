// First: the gateway serves requests at once, so the process's InvokeStore must be the one that
// keeps invocations apart, made before provisioning sends the first AWS SDK request (which would
// make the other kind).
import '../local/gateway/local-invocation';
import { LocalBackendError } from '../local/backends/errors';
import { reservePort } from '../local/backends/ports';
import { startBackends } from '../local/backends/start-backends';
import { seconds, statusToStderr } from '../local/backends/startup-status';
import { gatewaySettings } from '../local/gateway/gateway-settings';
import { BACKEND_SECTIONS, checkSettings, dataDirSetting, FUNCTION_SECTIONS, GATEWAY_SECTIONS, readSettings, SettingsError } from '../local/local-settings';

/**
 * `npm start`: DynamoDB Local and the local S3 as child processes on 127.0.0.1, tables and bucket
 * created from the stack's definitions, the local gateway running the real authorizer and
 * handlers in-process, and the media log's fold polling the table's stream. Ctrl-C stops everything it started. Each start-up step is said on stderr;
 * stdout gets the URLs once the API answers.
 *
 * Bad settings and a taken port are reported before anything starts. Only what starts the
 * back-ends is imported up front: the gateway's modules (the route table, the AWS SDK, the
 * handlers' code) load while DynamoDB Local boots, which is the longest step.
 */

const PORT_HINT = 'stop what holds it, or set PORT to another port (PORT=0 picks a free one)';

/** The gateway's modules; none of them reads configuration when loaded. */
function loadGatewayModules() {
  return Promise.all([
    import('../functions/shared/http/route-definition'),
    import('../local/environment'),
    import('../local/gateway/authorizer-runner'),
    import('../local/gateway/docs-page'),
    import('../local/gateway/http-server'),
    import('../local/fold/media-log-fold'),
    import('../local/gateway/local-invocation'),
    import('../local/gateway/lambda-context'),
  ]);
}

async function main(): Promise<void> {
  checkSettings([...GATEWAY_SECTIONS, ...FUNCTION_SECTIONS, ...BACKEND_SECTIONS]);
  const { port, authorizerCacheSeconds } = readSettings(gatewaySettings);
  const dataDir = dataDirSetting();
  const reservation = await reservePort(port, 'The local gateway', PORT_HINT);
  const gatewayModules = loadGatewayModules();
  gatewayModules.catch(() => undefined);
  const backends = await startBackends({ dataDir, status: statusToStderr, owner: 'npm start' }).catch(async (error: unknown) => {
    await reservation.release();
    throw error;
  });
  try {
    const [{ API_PREFIX }, { useLocalEnvironment }, { AuthorizerRunner, loadAuthorizer }, { DOCS_PATH }, { startGateway }, folding, { invokeIsolated }, { lambdaContext }] =
      await gatewayModules;
    await useLocalEnvironment(dataDir, backends);
    // The handlers read their configuration when first called; the environment is complete now.
    const authorizer = new AuthorizerRunner(await loadAuthorizer(), authorizerCacheSeconds);
    await reservation.release();
    const gateway = await startGateway(authorizer, reservation.port);
    // The media log's counters, folded from its stream as the stack's event source mapping does,
    // each batch an invocation of its own beside the requests the gateway serves.
    const { handler: foldHandler } = await import('../functions/media-log/fold/fold-media-log-counts');
    const { foldMediaLogCountsFunction: foldDefinition } = await import('../functions/media-log/fold/stream-functions');
    const fold = new folding.LocalMediaLogFold(folding.dataDirCheckpoints(dataDir), (event) =>
      invokeIsolated(foldHandler, event as never, lambdaContext(foldDefinition.name, foldDefinition.timeoutSeconds * 1000)),
    );
    fold.start((error) => statusToStderr(`the media log's fold failed a pass (the next one retries it): ${error instanceof Error ? error.message : String(error)}`));
    statusToStderr(`Frontend API ready in ${seconds(performance.now())}`);
    // One write: a reader that waits for the first line finds the second beside it (a pipe takes a
    // write under 4 KiB whole), where two writes could reach it apart.
    process.stdout.write(`Frontend API listening on ${gateway.baseUrl}${API_PREFIX}\nInteractive documentation: ${gateway.baseUrl}${DOCS_PATH}\n`);
    const stop = async () => {
      await gateway.close();
      await fold.stop();
      await backends.stop();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    await reservation.release();
    await backends.stop();
    throw error;
  }
}

main().catch((error: unknown) => {
  // Errors of the set-up say what to do in a line; anything else is a defect and keeps its stack.
  if (error instanceof LocalBackendError || error instanceof SettingsError) process.stderr.write(`${error.message}\n`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') process.stderr.write(`The local gateway cannot listen on port ${readSettings(gatewaySettings).port}: it was taken while the back-ends started; ${PORT_HINT}.\n`);
  else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
