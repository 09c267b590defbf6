import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { PayloadTooLargeError } from '../../shared/errors';

/**
 * Reads an image's bytes under a byte cap, counting while they stream in: an oversized body is cut
 * off at the cap, never buffered whole. The fetch reads a response with it, and an upload an S3
 * object's body, which the local S3 stores whatever the form's `content-length-range` said.
 */

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The image is larger than ${maxBytes} bytes.`, [
    { name: 'avatar', reason: `must be at most ${maxBytes} bytes` },
  ]);
}

/**
 * The bytes of `body`, at most `maxBytes` of them. A `declaredLength` above the cap is refused
 * before any byte is read.
 *
 * @throws PayloadTooLargeError (413) when the body is, or says it is, larger than `maxBytes`.
 */
export async function readLimited(body: Readable, declaredLength: number | undefined, maxBytes: number): Promise<Buffer> {
  if (declaredLength !== undefined && Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    body.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received += chunk.length;
    // Leaving the loop by throwing destroys the stream and with it the connection.
    if (received > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/** The body of `response`, at most `maxBytes` long, its `Content-Length` checked first. */
export function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = response.headers['content-length'];
  return readLimited(response, declared === undefined ? undefined : Number(declared), maxBytes);
}
