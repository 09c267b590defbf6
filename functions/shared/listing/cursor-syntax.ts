/**
 * What a cursor looks like, apart from the code that seals and opens it (cursor.ts): the query
 * schema refuses anything else before any decoding or cryptography, so nothing but well-formed
 * ASCII reaches them, and only the functions that page carry the cryptographic code.
 */

/** The query parameter that carries a cursor back. */
export const CURSOR_PARAMETER = 'pagination[cursor]';

/** Longest cursor accepted: a sealed payload of a few hundred characters, with room to spare. */
export const MAX_CURSOR_LENGTH = 1024;

/** Length of a cursor's nonce: 16 base64url characters (the 96-bit IV of AES-GCM). */
export const NONCE_LENGTH = 16;

/** Shortest sealed part: the 128-bit authentication tag alone is 22 base64url characters. */
const MIN_SEALED_LENGTH = 22;

/** A cursor: a base64url nonce, a dot, the base64url ciphertext with its authentication tag. */
export const CURSOR_SYNTAX = new RegExp(`^[A-Za-z0-9_-]{${NONCE_LENGTH}}\\.[A-Za-z0-9_-]{${MIN_SEALED_LENGTH},${MAX_CURSOR_LENGTH - NONCE_LENGTH - 1}}$`);
