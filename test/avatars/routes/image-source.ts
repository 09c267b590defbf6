import { resetConfiguration } from '../../../functions/shared/config/define-config';
import type { ServerResponse } from 'node:http';
import { startServer, type LocalServer } from '../fetch/local-servers';

/**
 * The source images of the route tests: a loopback HTTP server on the fetch's allow list for the
 * duration of a test file, serving what each test puts under a path and recording what was asked.
 */

/** What a path answers with. */
export type SourceAnswer = (response: ServerResponse) => void;

/** A running image source. */
export interface ImageSource {
  readonly server: LocalServer;
  /** Paths requested since the previous {@link takeRequests}. */
  takeRequests(): string[];
  /** Serves `body` under `path` with `contentType`. */
  serve(path: string, body: Buffer | string, contentType: string): string;
  /** Answers `path` with `answer`. */
  answer(path: string, answer: SourceAnswer): string;
  /** Stops the server and restores `AVATAR_FETCH_ALLOW_HOSTS`. */
  close(): Promise<void>;
}

/** Starts an image source and puts it on the allow list (test files share a worker: restore on close). */
export async function startImageSource(): Promise<ImageSource> {
  const answers = new Map<string, SourceAnswer>();
  let requests: string[] = [];
  const server = await startServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://source').pathname;
    requests.push(path);
    (answers.get(path) ?? ((missing) => missing.writeHead(404).end('not found')))(response);
  });
  const previous = process.env.AVATAR_FETCH_ALLOW_HOSTS;
  process.env.AVATAR_FETCH_ALLOW_HOSTS = server.hostPort;
  // The configuration is read once; a test that changes the environment reads it again.
  resetConfiguration();
  return {
    server,
    takeRequests: () => {
      const taken = requests;
      requests = [];
      return taken;
    },
    answer: (path, answer) => {
      answers.set(path, answer);
      return `${server.origin}${path}`;
    },
    serve: (path, body, contentType) => {
      answers.set(path, (response) => response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body));
      return `${server.origin}${path}`;
    },
    close: async () => {
      if (previous === undefined) delete process.env.AVATAR_FETCH_ALLOW_HOSTS;
      else process.env.AVATAR_FETCH_ALLOW_HOSTS = previous;
      resetConfiguration();
      await server.close();
    },
  };
}
