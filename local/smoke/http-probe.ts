import { describeNetworkFailure } from './network-failure';

/**
 * One request of a smoke check, made as a client on the internet makes it: Node's fetch, one
 * attempt, a time limit covering the whole answer (headers and body), redirects not followed.
 */

/** A request: method, path under the base URL, and headers. */
export interface ProbeRequest {
  readonly method?: string;
  /** Path under the base URL, starting with `/`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An HTTP answer, read whole. */
export interface ProbeAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** No HTTP answer: the message is the one-line reason (DNS, refused, TLS, timeout, …). */
export class ProbeFailure extends Error {
  public constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.name = 'ProbeFailure';
  }
}

/** Identifies the smoke check in the stage's access log. */
const USER_AGENT = 'frontend-api-smoke';

/** Send `request` to `baseUrl` + its path; no answer within `timeoutMs` (or none at all) is a {@link ProbeFailure}. */
export async function probe(baseUrl: string, request: ProbeRequest, timeoutMs: number): Promise<ProbeAnswer> {
  const url = new URL(`${baseUrl}${request.path}`);
  try {
    const response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: { 'user-agent': USER_AGENT, ...request.headers },
      // A redirect is itself a finding (a stage answers, it does not send clients elsewhere).
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    throw new ProbeFailure(describeNetworkFailure(error, url, timeoutMs), { cause: error });
  }
}
