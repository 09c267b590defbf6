import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MalformedBodyError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Largest body accepted, in bytes, after base64 decoding. */
  readonly maxBytes: number;
}

/** Largest JSON body a route accepts unless its contract says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The event, with its JSON body parsed into `parsedBody` (undefined when there is none). */
export type EventWithJsonBody = APIGatewayProxyEvent & { parsedBody?: unknown };

/**
 * Parse a JSON request body. A body that is not `application/json` is a 415, a malformed one a
 * 400 (not a 415 or a 422: the client sent broken syntax). Base64 bodies, as API Gateway passes
 * binary payloads, are decoded first. Headers are expected normalized to lower case.
 */
export function jsonBody(options: Partial<JsonBodyOptions> = {}): MiddlewareObj<EventWithJsonBody> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;

  const before: MiddlewareObj<EventWithJsonBody>['before'] = (request) => {
    const { event } = request;
    if (event.body === null || event.body === undefined || event.body === '') return;
    const contentType = event.headers?.['content-type'] ?? '';
    if (!JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError();
    const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
    if (raw.byteLength > maxBytes) {
      throw new PayloadTooLargeError(`The request body exceeds ${maxBytes} bytes.`);
    }
    try {
      event.parsedBody = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw new MalformedBodyError(undefined, error);
    }
  };

  return { before };
}
