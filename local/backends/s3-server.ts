import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';
import { EXIT_PORT_IN_USE } from './child-protocol';
import { LOOPBACK_HOST } from './ports';

/**
 * Entry point of the local S3 child (`node --openssl-legacy-provider --import tsx s3-server.ts
 * --port N --directory D`): s3rver on 127.0.0.1, objects under D. Port 0 picks a free port; the
 * bound endpoint is printed as `READY <url>`. The child exits when its stdin closes, so it never
 * outlives the process that started it.
 */

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, directory: { type: 'string' } },
});
if (!values.directory) {
  process.stderr.write('s3-server: --directory is required\n');
  process.exit(2);
}

process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
  // s3rver's listen() never rejects: a taken port surfaces as an uncaught 'error' event.
  if (error.code === 'EADDRINUSE') {
    process.stderr.write(`PORT_IN_USE ${error.message}\n`);
    process.exit(EXIT_PORT_IN_USE);
  }
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});

acceptEveryAccessKey();

const server = new S3rver({
  address: LOOPBACK_HOST,
  port: Number(values.port),
  directory: values.directory,
  silent: true,
  // Path-style only (`/<bucket>/<key>`), as the clients and avatar URLs use it.
  vhostBuckets: false,
});
const address = await server.run();
process.stdout.write(`READY http://${LOOPBACK_HOST}:${address.port}\n`);

const stop = (): void => {
  server.close().finally(() => process.exit(0));
};
process.stdin.on('end', stop).on('error', stop).resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/**
 * The functions sign with whatever credentials their environment has ("local", one key per test
 * file); s3rver knows only its built-in key and answers 403 to the rest. It does not verify SigV4
 * signatures at all, so mapping every key id to its built-in account gives nothing away.
 */
function acceptEveryAccessKey(): void {
  const accounts = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    registry: Map<string, unknown>;
    DUMMY_ACCOUNT: unknown;
  };
  const lookup = accounts.registry.get.bind(accounts.registry);
  accounts.registry.get = (accessKeyId: string) => lookup(accessKeyId) ?? accounts.DUMMY_ACCOUNT;
}
