import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ValidationError } from '../errors';
import { CURSOR_PARAMETER, CURSOR_SYNTAX } from './cursor-syntax';

/**
 * The `next` cursors of the listings: opaque to clients, bound to one listing and one query, and
 * sealed with AES-256-GCM, so that a client can resume a walk but never steer a read elsewhere in
 * an index, nor read where a walk stands. Encrypted, not only signed, because a page that spends
 * its read budget on entries the filter drops resumes at the last key it read: that key can be
 * another user's entry (its send and id), which a signed cursor would carry readably (DESIGN 4).
 * Each listing has its own key, derived from the one secret, so a cursor opens only where issued.
 */

/** Where a walk stands: the page a cursor leads to, and the edge it resumes at (key-range.ts). */
export interface CursorState {
  readonly page: number;
  readonly edge: string;
}

/** Longest edge a cursor may carry: a sort key and one character. */
const MAX_EDGE_LENGTH = 513;

const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A short, stable digest of a query's fingerprint: the cursor proves which query it belongs to, without repeating it. */
function digest(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22);
}

function invalid(reason: string): ValidationError {
  return new ValidationError([{ name: CURSOR_PARAMETER, reason }]);
}

const FOREIGN = 'Not a cursor this API issued.';

/** Seals and opens the cursors of one listing. */
export class CursorCodec {
  private readonly key: Buffer;

  public constructor(
    private readonly listing: string,
    secret: string,
  ) {
    // HKDF (RFC 5869) turns the configured secret into a uniform 256-bit key of this listing.
    this.key = Buffer.from(hkdfSync('sha256', secret, 'frontend-api list cursor', listing, 32));
  }

  /** The cursor of `state`, for the query whose fingerprint is given. */
  public encode(state: CursorState, fingerprint: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, nonce, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(this.listing));
    const plain = Buffer.from(JSON.stringify({ p: state.page, e: state.edge, q: digest(fingerprint) }));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${nonce.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The state a cursor carries, if this listing issued it for this query; anything else is a 400. */
  public decode(cursor: string, fingerprint: string): CursorState {
    if (!CURSOR_SYNTAX.test(cursor)) throw invalid(FOREIGN);
    const [nonce, sealed] = cursor.split('.').map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer];
    if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES) throw invalid(FOREIGN);
    let state: { p?: unknown; e?: unknown; q?: unknown };
    try {
      const decipher = createDecipheriv(CIPHER, this.key, nonce, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(this.listing));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      state = JSON.parse(plain.toString('utf8')) as typeof state;
    } catch {
      // A failed tag check: altered, truncated, or sealed by another listing or deployment.
      throw invalid(FOREIGN);
    }
    if (state.q !== digest(fingerprint)) throw invalid('The cursor belongs to a different query; repeat the same filters, sort and limit.');
    // Sealed by us, so well-formed; checked anyway, as a second key would not be.
    // A cursor of the previous release carried a key to resume after (`a`), not an edge: refused, never misread.
    if (!Number.isSafeInteger(state.p) || (state.p as number) < 2 || typeof state.e !== 'string' || state.e.length > MAX_EDGE_LENGTH) {
      throw invalid(FOREIGN);
    }
    return { page: state.p as number, edge: state.e };
  }
}
