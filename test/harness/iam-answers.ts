import { Readable } from 'node:stream';
import type { DataGrants } from '../../functions/shared/deployment/data-grants';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';

/**
 * What S3 and DynamoDB answer in AWS where IAM decides the answer, which the local back-ends (they
 * enforce no IAM) cannot give:
 * - S3 answers a GetObject or HeadObject of a key that does not exist 404 only to a caller that may
 *   list the bucket; any other caller gets 403 AccessDenied, whether the key exists or not
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html and
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html, "Permissions"). A
 *   DeleteObject needs no listing: S3 answers 204 whether the key existed or not
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObject.html), as the local S3 does.
 * - DynamoDB refuses a request its caller's policy does not allow with a 400 AccessDeniedException,
 *   and does nothing of it.
 *
 * The faults are injected on the wire, between the SDK's deserializer and the back-end: the SDK
 * reads the HTTP answer AWS sends (status, headers, error body), so the code under test gets exactly
 * the error it gets in AWS.
 */

type Next = (args: any) => Promise<{ response: unknown }>;
type Stack = { addRelativeTo(middleware: unknown, options: object): void; remove(name: string): boolean };

/** Installs `answer` on `client` between its deserializer and the wire; returns the function that takes it off. */
export function onTheWire(client: { middlewareStack: Stack }, name: string, answer: (next: Next, args: any, commandName: string | undefined) => Promise<{ response: unknown }>): () => void {
  client.middlewareStack.addRelativeTo((next: Next, context: { commandName?: string }) => (args: unknown) => answer(next, args, context.commandName), {
    relation: 'after',
    toMiddleware: 'deserializerMiddleware',
    name,
    override: true,
  });
  return () => void client.middlewareStack.remove(name);
}

/** An HTTP answer as the SDK's handlers return it. */
export function httpAnswer(statusCode: number, headers: Record<string, string>, body: string) {
  return { response: { statusCode, reason: statusCode === 403 ? 'Forbidden' : 'Bad Request', headers, body: Readable.from([Buffer.from(body)]) } };
}

/** The reads whose answer for a missing key depends on `s3:ListBucket`. */
const KEY_READS: ReadonlySet<string | undefined> = new Set(['GetObjectCommand', 'HeadObjectCommand']);

/** The prefixes of the avatar bucket that a function with `grants` may list. */
export function listablePrefixes(grants: DataGrants): string[] {
  return [
    ...(grants.avatars?.includes('ListBucket') ? [avatarBucket.objectPrefix] : []),
    ...(grants.uploads?.includes('ListBucket') ? [avatarBucket.uploadPrefix] : []),
  ];
}

/** S3's 403 AccessDenied, as it arrives: an XML error document, or no body at all for a HEAD. */
function s3AccessDenied(head: boolean) {
  const requestId = 'E1D3A3C0B5F5A111';
  const hostId = 'aGVsbG8gZnJvbSB0aGUgdGVzdHM=';
  const body = head
    ? ''
    : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`;
  return httpAnswer(403, { 'content-type': 'application/xml', 'x-amz-request-id': requestId, 'x-amz-id-2': hostId, server: 'AmazonS3' }, body);
}

/**
 * Makes the S3 `client` answer as S3 answers a function that may list only `listable` prefixes of
 * the bucket (see {@link listablePrefixes}): a GetObject or HeadObject of a missing key elsewhere is
 * S3's 403 AccessDenied. Returns the function that takes it off again.
 */
export function answerAsWithoutListing(client: { middlewareStack: Stack }, listable: readonly string[]): () => void {
  return onTheWire(client, 's3AnswersWithoutListing', async (next, args: { input: { Key?: string } }, commandName) => {
    const result = await next(args);
    const response = result.response as { statusCode: number; body?: Readable };
    const key = args.input.Key ?? '';
    if (response.statusCode !== 404 || !KEY_READS.has(commandName) || listable.some((prefix) => key.startsWith(prefix))) return result;
    response.body?.resume();
    return s3AccessDenied(commandName === 'HeadObjectCommand');
  });
}

/**
 * Makes the S3 `client` refuse every GetObject of a key under `prefix`, present or not, as S3 does
 * once the caller's policy no longer allows it: 403 AccessDenied with the message S3 gives a caller
 * of the bucket owner's account, which names the policy that denied
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/troubleshoot-403-errors.html). Returns the
 * function that takes it off again.
 */
export function denyS3Reads(client: { middlewareStack: Stack }, prefix: string): () => void {
  return onTheWire(client, 's3ReadsDenied', async (next, args: { input: { Bucket?: string; Key?: string } }, commandName) => {
    const key = args.input.Key ?? '';
    if (commandName !== 'GetObjectCommand' || !key.startsWith(prefix)) return next(args);
    const requestId = 'D3N13D0000000000';
    const message = `User: arn:aws:sts::123456789012:assumed-role/FrontendApi-Role/function is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::${args.input.Bucket ?? ''}/${key}" because no identity-based policy allows the s3:GetObject action`;
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message><RequestId>${requestId}</RequestId></Error>`;
    return httpAnswer(403, { 'content-type': 'application/xml', 'x-amz-request-id': requestId, server: 'AmazonS3' }, body);
  });
}

/**
 * Makes the DynamoDB `client` refuse, as IAM does, the requests `denied` picks (by command name,
 * e.g. `GetItemCommand`, and input): DynamoDB's 400 AccessDeniedException, the request never
 * reaching the table. Returns the function that takes it off again.
 */
export function denyAsIam(client: { middlewareStack: Stack }, denied: (commandName: string, input: Record<string, unknown>) => boolean): () => void {
  return onTheWire(client, 'dynamodbAccessDenied', async (next, args: { input: Record<string, unknown> }, commandName = '') => {
    if (!denied(commandName, args.input)) return next(args);
    const action = commandName.replace(/Command$/, '');
    const message = `User: arn:aws:sts::123456789012:assumed-role/FrontendApi-Role/function is not authorized to perform: dynamodb:${action} on resource: arn:aws:dynamodb:us-east-1:123456789012:table/${String(args.input.TableName)} because no identity-based policy allows the dynamodb:${action} action`;
    return httpAnswer(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'IAMDENIED0000000000000000000000000000000000000000000' }, JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message }));
  });
}
