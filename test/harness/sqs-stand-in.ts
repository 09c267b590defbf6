import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the SQS API on 127.0.0.1, for the one call the service makes itself (SendMessage:
 * the fold's report of a record it skipped). The real SDK client sends to the queue URL's host
 * (AWS JSON 1.0, `X-Amz-Target: AmazonSQS.SendMessage`); SQS has no local emulator among the
 * service's back-ends, and this one keeps what it was sent.
 */

/** The stand-in, a queue URL on it, and the message bodies it received. */
export interface SqsStandIn {
  readonly queueUrl: string;
  readonly bodies: string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** Start a stand-in on a free port of 127.0.0.1, holding one queue. */
export async function startSqsStandIn(): Promise<SqsStandIn> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      const target = String(request.headers['x-amz-target'] ?? '');
      response.setHeader('content-type', 'application/x-amz-json-1.0');
      if (target !== 'AmazonSQS.SendMessage') {
        response.statusCode = 400;
        response.end(JSON.stringify({ __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `not served here: ${target}` }));
        return;
      }
      const message = String(body.MessageBody);
      bodies.push(message);
      // The SDK checks the digest of what it sent against SQS's answer.
      response.end(JSON.stringify({ MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(message).digest('hex') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    queueUrl: `http://127.0.0.1:${port}/000000000000/MediaLogFoldFailures`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
