import { PreconditionFailedError, ValidationError } from '../errors';

/**
 * `If-Match` as RFC 9110 section 13.1.1 defines it: `*`, or a comma-separated list of entity tags
 * (`"3"`, `W/"3"`), compared with the strong comparison function. Any well-formed tag that is not
 * the current version fails the condition (412); only a header that is not this syntax is a 400.
 */

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (RFC 9110 section 8.8.3).
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** One entity tag of the header. */
interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

function parseList(header: string): EntityTag[] | '*' {
  const trimmed = header.trim();
  if (trimmed === '*') return '*';
  // Split on the commas outside quotes (an opaque tag may contain one); empty list elements are
  // allowed (RFC 9110 section 5.6.1.2).
  const elements = trimmed.match(/(?:[^,"]|"[^"]*")+/g)?.map((element) => element.trim()).filter((element) => element !== '') ?? [];
  const tags = elements.map((element) => ENTITY_TAG.exec(element));
  if (tags.length === 0 || tags.some((tag) => tag === null)) {
    throw new ValidationError([{ name: 'If-Match', reason: 'Must be * or a list of entity tags, e.g. "3".' }]);
  }
  return tags.map((tag) => ({ weak: tag?.[1] !== undefined, opaque: tag?.[2] as string }));
}

/**
 * The version an update must be conditional on, given the header and the version just read:
 * undefined for no header or `*` (the resource exists), the current version when a strong tag names
 * it (the write then fails with 412 if another write gets in first).
 *
 * @throws ValidationError (400) for a header that is not `*` or a list of entity tags.
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
