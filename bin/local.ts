// First: the gateway serves requests at once, so the process's InvokeStore must be the one that
// keeps invocations apart, made before provisioning sends the first AWS SDK request (which would
// make the other kind).
import '../local/gateway/local-invocation';
import { LocalBackendError } from '../local/backends/errors';
import { reservePort } from '../local/backends/ports';
import { startBackends } from '../local/backends/start-backends';
import { seconds, statusToStderr } from '../local/backends/startup-status';
import { gatewaySettings } from '../local/gateway/gateway-settings';
import { liveServerSettings } from '../local/live/live-settings';
import { BACKEND_SECTIONS, checkSettings, dataDirSetting, FUNCTION_SECTIONS, GATEWAY_SECTIONS, readSettings, SettingsError } from '../local/local-settings';

/**
 * `npm start`: DynamoDB Local and the local S3 as child processes on 127.0.0.1, tables and bucket
 * created from the stack's definitions, the local gateway running the real authorizer and
 * handlers in-process, the live media log's WebSocket API beside it, every stream consumer (the
 * media log's fold, the live notifier, the live access keeper) polling its table's stream, and the
 * scheduled functions on their rates. Ctrl-C stops everything it started. Each start-up step is
 * said on stderr; stdout gets the URLs once the API answers.
 *
 * Bad settings and a taken port are reported before anything starts. Only what starts the
 * back-ends is imported up front: the gateway's modules (the route table, the AWS SDK, the
 * handlers' code) load while DynamoDB Local boots, which is the longest step.
 */

const PORT_HINT = 'stop what holds it, or set PORT to another port (PORT=0 picks a free one)';
const LIVE_PORT_HINT = 'stop what holds it, or set LIVE_PORT to another port (LIVE_PORT=0 picks a free one)';

/** The gateway's modules; none of them reads configuration when loaded. */
function loadGatewayModules() {
  return Promise.all([
    import('../functions/shared/http/route-definition'),
    import('../local/environment'),
    import('../local/gateway/authorizer-runner'),
    import('../local/gateway/docs-page'),
    import('../local/gateway/http-server'),
    import('../local/fold/media-log-fold'),
    import('../local/fold/stream-consumers'),
    import('../local/live/live-server'),
    import('../local/schedule/local-scheduler'),
    import('../functions/live/live-config'),
  ]);
}

async function main(): Promise<void> {
  checkSettings([...GATEWAY_SECTIONS, ...FUNCTION_SECTIONS, ...BACKEND_SECTIONS]);
  const { port, authorizerCacheSeconds } = readSettings(gatewaySettings);
  const dataDir = dataDirSetting();
  const live = readSettings(liveServerSettings);
  const reservation = await reservePort(port, 'The local gateway', PORT_HINT);
  const liveReservation = await reservePort(live.port, "The live media log's WebSocket", LIVE_PORT_HINT).catch(async (error: unknown) => {
    await reservation.release();
    throw error;
  });
  const release = () => Promise.all([reservation.release(), liveReservation.release()]);
  const gatewayModules = loadGatewayModules();
  gatewayModules.catch(() => undefined);
  const backends = await startBackends({ dataDir, status: statusToStderr, owner: 'npm start' }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  try {
    const [{ API_PREFIX }, { useLocalEnvironment, resetServiceState }, { AuthorizerRunner, loadAuthorizer }, { DOCS_PATH }, { startGateway }, folding, { LocalStreamConsumers }, { startLiveServer }, { LocalScheduler }, { LIVE_ENV }] =
      await gatewayModules;
    await useLocalEnvironment(dataDir, backends);
    await release();
    const liveServer = await startLiveServer({ port: liveReservation.port, idleSeconds: live.idleSeconds, connectionSeconds: live.connectionSeconds });
    // Where tickets point and the functions post, now that the port is known (LIVE_PORT=0 picks one).
    process.env[LIVE_ENV.websocketUrl] ??= liveServer.url;
    process.env[LIVE_ENV.connectionsEndpoint] ??= liveServer.connectionsEndpoint;
    resetServiceState();
    // The handlers read their configuration when first called; the environment is complete now.
    const authorizer = new AuthorizerRunner(await loadAuthorizer(), authorizerCacheSeconds);
    const gateway = await startGateway(authorizer, reservation.port);
    // Every table stream's consumers (the media log's fold, the live notifier, the live access
    // keeper), each polling as its event source mapping does, each batch an invocation of its own.
    const consumers = new LocalStreamConsumers((name) => folding.dataDirCheckpoints(dataDir, name));
    consumers.start((name, error) => statusToStderr(`${name} failed a pass over its stream (the next one retries it): ${error instanceof Error ? error.message : String(error)}`));
    const scheduler = new LocalScheduler();
    scheduler.start((name, error) => statusToStderr(`the scheduled ${name} failed a run: ${error instanceof Error ? error.message : String(error)}`));
    statusToStderr(`Frontend API ready in ${seconds(performance.now())}`);
    // One write: a reader that waits for the first line finds the others beside it (a pipe takes a
    // write under 4 KiB whole), where several writes could reach it apart.
    process.stdout.write(`Frontend API listening on ${gateway.baseUrl}${API_PREFIX}\nLive media log (WebSocket): ${process.env[LIVE_ENV.websocketUrl]}\nInteractive documentation: ${gateway.baseUrl}${DOCS_PATH}\n`);
    const stop = async () => {
      scheduler.stop();
      await gateway.close();
      await liveServer.close();
      await consumers.stop();
      await backends.stop();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    await release();
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
