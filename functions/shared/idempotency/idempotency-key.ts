import { ValidationError } from '../errors';

/**
 * The `Idempotency-Key` request header, as the IETF httpapi draft "The Idempotency-Key HTTP Header
 * Field" defines it: an Item Structured Header Field whose value is a String (RFC 8941 section
 * 3.3.3), e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`. This API takes keys of 1 to
 * {@link MAX_IDEMPOTENCY_KEY_LENGTH} characters, without parameters.
 */

/** Request header name, as the draft spells it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** How long a key is remembered after its request: a day, the retry window docs/frontend.md, "Safe retries (`Idempotency-Key`)" documents. */
export const IDEMPOTENCY_KEY_RETENTION_SECONDS = 24 * 60 * 60;

/** Longest key, in characters of the string (an escape pair `\"` or `\\` counts as one). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

// One character of an RFC 8941 String: printable ASCII other than `"` and `\`, or one of them escaped.
const STRING_CHARACTER = String.raw`(?:[ !#-\[\]-~]|\\["\\])`;

/** The header's whole value as a regular expression; the OpenAPI document states the same rule as its pattern. */
export const IDEMPOTENCY_KEY_PATTERN = `^"${STRING_CHARACTER}{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}"$`;

const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);
const ANY_STRING = new RegExp(`^"${STRING_CHARACTER}*"$`);

/** Why a value that is not a key was refused, as precisely as the value allows. */
function refusal(value: string): string {
  if (value === '""') return 'Must not be empty.';
  if (ANY_STRING.test(value)) return `Must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`;
  return 'Must be a quoted string of printable ASCII characters (a Structured Field String), e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324".';
}

/**
 * The key a request carries, unescaped; undefined when it has none.
 *
 * @throws ValidationError (400) naming the header when the value is not a quoted string of 1 to 255
 *   printable ASCII characters.
 */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // RFC 8941 section 4.2: spaces around the value are not part of it.
  const value = header.trim();
  if (!KEY.test(value)) throw new ValidationError([{ name: IDEMPOTENCY_KEY_HEADER, reason: refusal(value) }]);
  return value.slice(1, -1).replace(/\\(["\\])/g, '$1');
}
