import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors';
import { CURSOR_PARAMETER, CURSOR_SYNTAX, MAC_LENGTH } from './cursor-syntax';

/**
 * The `next` cursors of the listings: opaque to clients, bound to one listing and one query, and
 * integrity-protected, so that a client can resume a walk but never steer a read elsewhere in an
 * index. Each listing has its own codec (its name is part of what is signed).
 */

/** Where a walk stands: the page a cursor leads to, and the sort key to resume after. */
export interface CursorState {
  readonly page: number;
  readonly after: string;
}

/** Longest sort key a cursor may carry. */
const MAX_AFTER_LENGTH = 512;

/** A short, stable digest of a query's fingerprint: the cursor proves which query it belongs to, without repeating it. */
function digest(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22);
}

function invalid(reason: string): ValidationError {
  return new ValidationError([{ name: CURSOR_PARAMETER, reason }]);
}

/** Signs and checks the cursors of one listing. */
export class CursorCodec {
  public constructor(
    private readonly listing: string,
    private readonly secret: string,
  ) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(`${this.listing}.${payload}`).digest('base64url').slice(0, MAC_LENGTH);
  }

  /** The cursor of `state`, for the query whose fingerprint is given. */
  public encode(state: CursorState, fingerprint: string): string {
    const payload = Buffer.from(JSON.stringify({ p: state.page, a: state.after, q: digest(fingerprint) })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The state a cursor carries, if this listing issued it for this query; anything else is a 400. */
  public decode(cursor: string, fingerprint: string): CursorState {
    if (!CURSOR_SYNTAX.test(cursor)) throw invalid('Not a cursor this API issued.');
    const [payload, mac] = cursor.split('.') as [string, string];
    if (!timingSafeEqual(Buffer.from(mac, 'ascii'), Buffer.from(this.sign(payload), 'ascii'))) throw invalid('Not a cursor this API issued.');
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; a?: unknown; q?: unknown };
    if (state.q !== digest(fingerprint)) throw invalid('The cursor belongs to a different query; repeat the same filters, sort and limit.');
    // Signed by us, so well-formed; checked anyway, as a second key would not be.
    if (!Number.isSafeInteger(state.p) || (state.p as number) < 2 || typeof state.a !== 'string' || state.a.length > MAX_AFTER_LENGTH) {
      throw invalid('Not a cursor this API issued.');
    }
    return { page: state.p as number, after: state.a };
  }
}
