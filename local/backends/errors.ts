/**
 * Errors of the local back-end set-up. Each message is one line that says what to do, because it
 * ends up in a terminal (`npm start`, `npm test`), not in a log search.
 */

/** Base of every local back-end error. */
export class LocalBackendError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LocalBackendError';
  }
}

/** No usable Java runtime: DynamoDB Local is a Java program. */
export class JavaNotFoundError extends LocalBackendError {
  public constructor(detail: string, cause?: unknown) {
    super(`Java 17+ is needed for DynamoDB Local: install openjdk-17-jre-headless (${detail}).`, { cause });
    this.name = 'JavaNotFoundError';
  }
}

/** A fixed port that another process already listens on. */
export class PortInUseError extends LocalBackendError {
  public readonly port: number | undefined;

  public constructor(backend: string, port: number | undefined, hint = 'free it or choose another port') {
    const where = port === undefined ? 'its port' : `port ${port}`;
    super(`${backend} cannot listen on ${where}: it is already in use; ${hint}.`);
    this.name = 'PortInUseError';
    this.port = port;
  }
}

/** A child backend that exited or stayed silent before it was ready. */
export class BackendStartError extends LocalBackendError {
  public constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'BackendStartError';
  }
}

/** The data directory is already served by backends another process started. */
export class BackendsAlreadyRunningError extends LocalBackendError {
  public constructor(dataDir: string, detail: string) {
    super(`The data directory ${dataDir} is already served by running backends (${detail}); stop them or use another DATA_DIR.`);
    this.name = 'BackendsAlreadyRunningError';
  }
}
