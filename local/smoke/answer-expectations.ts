import { PROBLEM_MEDIA_TYPE, PROBLEMS, type ProblemCode } from '../../functions/shared/http/problem-catalog';
import type { ProbeAnswer } from './http-probe';

/**
 * What a check expects of an answer, each as a list of one-line failures (empty: as expected).
 * The expected problems come from the API's own catalog, so the check and the API agree by
 * construction; what an answer *is* is described in the terms an operator recognises.
 */

/** The media type of an answer, lower case, without parameters; `''` when it has none. */
export function mediaTypeOf(answer: ProbeAnswer): string {
  return (answer.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The body parsed as JSON, or undefined when it is not JSON. */
export function jsonBody(answer: ProbeAnswer): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}

/** A member of a JSON object, or undefined. */
export function member(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

const LONGEST_QUOTE = 100;

function quote(text: string): string {
  return text.length > LONGEST_QUOTE ? `${text.slice(0, LONGEST_QUOTE)}…` : text;
}

/**
 * An answer in a few words: its status and what says most about it — a problem's code and detail,
 * the `message` of API Gateway's unconfigured answers (`{"message":"Missing Authentication Token"}`),
 * or else its media type.
 */
export function describeAnswer(answer: ProbeAnswer): string {
  const body = jsonBody(answer);
  const code = member(body, 'code');
  const detail = member(body, 'detail');
  const message = member(body, 'message');
  if (typeof code === 'string') return `${answer.status} ${code}${typeof detail === 'string' ? `: ${quote(detail)}` : ''}`;
  if (typeof message === 'string') return `${answer.status} "${quote(message)}"`;
  const location = answer.headers.get('location');
  if (location !== null) return `${answer.status} to ${quote(location)}`;
  return `${answer.status} (${mediaTypeOf(answer) || 'no Content-Type'})`;
}

/** The failure of an answer whose status is not `expected`, or undefined. */
export function statusFailure(answer: ProbeAnswer, expected: number): string | undefined {
  return answer.status === expected ? undefined : `expected ${expected}, got ${describeAnswer(answer)}`;
}

/** The failure of an answer whose media type is not `expected`, or undefined. */
export function mediaTypeFailure(answer: ProbeAnswer, expected: string): string | undefined {
  const actual = mediaTypeOf(answer);
  return actual === expected ? undefined : `expected Content-Type ${expected}, got ${actual || 'none'}`;
}

/**
 * The failures of an answer that should be the problem `code` of the catalog (RFC 9457): its status,
 * the problem media type, and a body with that status and code and the other members. A wrong status
 * is the only failure reported, as the rest would only repeat it.
 */
export function problemFailures(answer: ProbeAnswer, code: ProblemCode): string[] {
  const expected = PROBLEMS[code];
  const wrongStatus = statusFailure(answer, expected.status);
  if (wrongStatus) return [wrongStatus];
  const failures: string[] = [];
  const wrongType = mediaTypeFailure(answer, PROBLEM_MEDIA_TYPE);
  if (wrongType) failures.push(wrongType);
  const body = jsonBody(answer);
  if (member(body, 'code') !== code) failures.push(`expected a problem with code ${code}, got ${quote(answer.text) || 'an empty body'}`);
  else if (member(body, 'status') !== expected.status) failures.push(`the problem's status member is ${String(member(body, 'status'))}, not ${expected.status}`);
  else {
    const missing = ['type', 'title', 'detail'].filter((name) => typeof member(body, name) !== 'string');
    if (missing.length > 0) failures.push(`the problem lacks ${missing.join(', ')}`);
  }
  return failures;
}

/** The items of a comma-separated header (`Access-Control-Allow-Methods: GET, PUT`), lower case. */
export function headerItems(answer: ProbeAnswer, name: string): string[] {
  return (answer.headers.get(name) ?? '').split(',').map((item) => item.trim().toLowerCase()).filter((item) => item !== '');
}
