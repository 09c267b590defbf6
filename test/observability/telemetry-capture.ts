import { Writable } from 'node:stream';
import { sendLocalTelemetryTo } from '../../functions/shared/observability/telemetry-output';

/** One JSON line as written. */
export type Line = Record<string, any>;

/** Lines written to a stream, kept to be read back. */
export class LineCollector extends Writable {
  private text = '';

  public constructor() {
    super({ decodeStrings: false });
  }

  public override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }

  /** Every complete line so far, parsed, and forgotten. */
  public take(): Line[] {
    const complete = this.text.slice(0, this.text.lastIndexOf('\n') + 1);
    this.text = this.text.slice(complete.length);
    return complete.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
  }
}

/**
 * Turn on what the tests' set-up turns off: log lines at INFO and, with `metrics`, metric lines.
 * Powertools reads these settings when the logger and metrics objects are made, and Lambda-context
 * injection puts a logger back at its initial level on every invocation: call this before anything
 * imports a function module (a test file imports its other modules dynamically after it).
 */
export function enableTelemetry(options: { readonly metrics?: boolean } = {}): void {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  if (options.metrics) process.env.POWERTOOLS_METRICS_DISABLED = 'false';
}

/**
 * Captures the log and metric lines the functions write locally (the same lines they write to
 * stderr under `npm start`) for the calling test file.
 */
export function useTelemetryCapture(): LineCollector {
  const collector = new LineCollector();
  beforeAll(() => {
    sendLocalTelemetryTo(collector);
  });
  beforeEach(() => {
    collector.take();
  });
  afterAll(() => {
    sendLocalTelemetryTo(process.stderr);
  });
  return collector;
}

/** Whether a line is an embedded-metric-format line. */
export function isMetricLine(line: Line): boolean {
  return line._aws !== undefined;
}
