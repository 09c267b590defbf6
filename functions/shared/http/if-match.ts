import { PreconditionFailedError, ValidationError } from '../errors';

/**
 * `If-Match` as RFC 9110 section 13.1.1 defines it: `*`, or a comma-separated list of entity tags
 * (`"3"`, `W/"3"`), compared with the strong comparison function. Any well-formed tag that is not
 * the current version fails the condition (412); only a header that is not this syntax is a 400,
 * an empty one included.
 */

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (RFC 9110 section 8.8.3).
const ENTITY_TAG = String.raw`(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"`;
// Optional white space: spaces and tabs (RFC 9110 section 5.6.3).
const OWS = '[ \\t]*';

/**
 * The header's whole value as a regular expression: `*`, or a list of at least one entity tag, in
 * which empty elements are allowed (RFC 9110 section 5.6.1.2). The OpenAPI document states the
 * same rule as its pattern.
 */
export const IF_MATCH_PATTERN = `^${OWS}(?:\\*|(?:,${OWS})*${ENTITY_TAG}(?:${OWS},(?:${OWS}${ENTITY_TAG})?)*)${OWS}$`;

const IF_MATCH = new RegExp(IF_MATCH_PATTERN);
const TAGS = /(W\/)?"([^"]*)"/g;

/** One entity tag of the header. */
interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

function parseList(header: string): EntityTag[] | '*' {
  if (!IF_MATCH.test(header)) throw new ValidationError([{ name: 'If-Match', reason: 'Must be * or a list of entity tags, e.g. "3".' }]);
  if (header.trim() === '*') return '*';
  // The syntax checked, every quoted string is one tag (an opaque tag holds no quote).
  return [...header.matchAll(TAGS)].map((tag) => ({ weak: tag[1] !== undefined, opaque: tag[2] as string }));
}

/**
 * The version an update must be conditional on, given the header and the version just read:
 * undefined for no header or `*` (the resource exists), the current version when a strong tag names
 * it (the write then fails with 412 if another write gets in first).
 *
 * @throws ValidationError (400) for a header that is not `*` or a list of entity tags (an empty one included).
 * @throws PreconditionFailedError (412) when no tag of the list is the current version's strong tag.
 */
export function versionFromIfMatch(ifMatch: string | undefined, currentVersion: number): number | undefined {
  if (ifMatch === undefined) return undefined;
  const tags = parseList(ifMatch);
  if (tags === '*') return undefined;
  // Strong comparison: a weak tag never matches.
  if (tags.some((tag) => !tag.weak && tag.opaque === String(currentVersion))) return currentVersion;
  throw new PreconditionFailedError();
}
