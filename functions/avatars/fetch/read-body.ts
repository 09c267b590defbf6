import type { IncomingMessage } from 'node:http';
import { PayloadTooLargeError } from '../../shared/errors';

/**
 * Reads a response body under a byte cap, counting while the bytes stream in: an oversized body
 * is cut off at the cap, never buffered whole.
 */

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The image is larger than ${maxBytes} bytes.`, [
    { name: 'avatar', reason: `must be at most ${maxBytes} bytes` },
  ]);
}

/**
 * The body of `response`, at most `maxBytes` long. A declared `Content-Length` above the cap is
 * refused before any byte is read.
 *
 * @throws PayloadTooLargeError (413) when the body is, or says it is, larger than `maxBytes`.
 */
export async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    received += chunk.length;
    // Leaving the loop by throwing destroys the stream and with it the connection.
    if (received > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}
