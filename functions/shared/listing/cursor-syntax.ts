/**
 * What a cursor looks like, apart from the code that signs and checks it (cursor.ts): the query
 * schema refuses anything else before any decoding or cryptography, so nothing but well-formed
 * ASCII reaches them, and only the functions that page carry the signing code.
 */

/** The query parameter that carries a cursor back. */
export const CURSOR_PARAMETER = 'pagination[cursor]';

/** Longest cursor accepted: a payload of a few hundred characters and its MAC, with room to spare. */
export const MAX_CURSOR_LENGTH = 1024;

/** Length of a cursor's MAC: 22 base64url characters (132 bits of HMAC-SHA256). */
export const MAC_LENGTH = 22;

/** A cursor: base64url payload, a dot, a base64url MAC. */
export const CURSOR_SYNTAX = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CURSOR_LENGTH - MAC_LENGTH - 1}}\\.[A-Za-z0-9_-]{${MAC_LENGTH}}$`);
