import { AsyncLocalStorage } from 'node:async_hooks';
import { getDocumentClient, getS3Client } from '../../../functions/shared/aws/clients';

/**
 * Records every DynamoDB and S3 request the shared SDK clients send, with the name of the deployed
 * function whose code sent it: a test runs each function's code inside {@link asFunction}, and an
 * `initialize` middleware on the process-wide clients notes the command and its input (as the
 * document client hands it on: keys and items as plain values). Requests sent outside any
 * function (test set-up) are not recorded.
 */

/** One request a function sent. */
export interface RecordedCall {
  readonly functionName: string;
  readonly service: 'dynamodb' | 's3';
  /** The API operation, e.g. `UpdateItem`, `PutObject`. */
  readonly operation: string;
  readonly input: Readonly<Record<string, any>>;
}

const running = new AsyncLocalStorage<string>();

/** Runs `work` as the code of function `functionName`: its requests are recorded under that name. */
export function asFunction<T>(functionName: string, work: () => Promise<T>): Promise<T> {
  return running.run(functionName, work);
}

/** The list the installed recorder fills. */
let recording: RecordedCall[] | undefined;

/**
 * Records the request S3 authorizes with a function's credentials when a browser posts a form the
 * function presigned (an `s3:PutObject` of the form's key): the function signs it but never sends it.
 */
export function recordSignedPost(functionName: string, form: { readonly fields: Readonly<Record<string, string>> }): void {
  recording?.push({ functionName, service: 's3', operation: 'PutObject', input: { Bucket: form.fields.bucket, Key: form.fields.key } });
}

/** Installs the recorder on the shared clients; the returned list fills as requests are sent. */
export function recordCalls(): RecordedCall[] {
  const calls: RecordedCall[] = [];
  recording = calls;
  const install = (service: RecordedCall['service'], stack: { add: (...args: any[]) => void }) => {
    stack.add(
      (next: (args: { input: Record<string, any> }) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: Record<string, any> }) => {
        const functionName = running.getStore();
        if (functionName !== undefined) {
          // The body of an upload is no part of its authorization, and may be a stream.
          const { Body: _body, ...input } = args.input;
          calls.push({ functionName, service, operation: String(context.commandName).replace(/Command$/, ''), input });
        }
        return next(args);
      },
      { step: 'initialize', name: `grantCoverageRecorder-${service}` },
    );
  };
  // The document client shares its middleware stack with the DynamoDB client it wraps.
  install('dynamodb', getDocumentClient().middlewareStack);
  install('s3', getS3Client().middlewareStack);
  return calls;
}
