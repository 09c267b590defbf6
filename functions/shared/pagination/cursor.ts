import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors';
import type { PartitionPosition } from '../dynamo/merged-query';

/** What a `next` cursor remembers: the page it leads to, the listing it belongs to, and where each stream stands. */
export interface CursorState {
  readonly page: number;
  /** A fingerprint of the query (filters, sort, limit, caller) the cursor was made for. */
  readonly query: string;
  readonly positions: readonly PartitionPosition[];
}

/** The query parameter that carries a cursor back. */
export const CURSOR_PARAMETER = 'pagination[cursor]';

const MAX_CURSOR_LENGTH = 4096;

function secret(): string {
  // The cursor is integrity-protected so that a client cannot steer reads elsewhere in an index;
  // a per-deployment secret is best, a fixed one still blocks casual tampering locally.
  return process.env.CURSOR_SECRET ?? 'frontend-api-cursor';
}

function sign(payload: string): string {
  return createHmac('sha256', secret()).update(payload).digest('base64url').slice(0, 22);
}

/** Encode a cursor: base64url JSON plus a MAC. Opaque to clients. */
export function encodeCursor(state: CursorState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

function invalid(reason: string): ValidationError {
  return new ValidationError([{ name: CURSOR_PARAMETER, reason }]);
}

/** Decode a cursor made by {@link encodeCursor} for the same query; anything else is a 400. */
export function decodeCursor(cursor: string, query: string): CursorState {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid('The cursor is too long.');
  const [payload, mac] = cursor.split('.');
  if (!payload || !mac || mac.length !== 22 || !timingSafeEqual(Buffer.from(mac), Buffer.from(sign(payload)))) {
    throw invalid('Not a cursor this API issued.');
  }
  const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorState;
  if (state.query !== query) throw invalid('The cursor belongs to a different query; repeat the same filters, sort and limit.');
  return state;
}
