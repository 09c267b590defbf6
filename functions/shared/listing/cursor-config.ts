import { defineConfig } from '../config/define-config';

/** Variable holding the key that signs list cursors (a per-deployment secret in AWS). */
export const CURSOR_SECRET_ENV = 'CURSOR_SECRET';

/** Shortest key accepted: 32 characters, about the strength of the HMAC-SHA256 it keys. */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/** The cursor section of the functions that page: the signing key, required, never a built-in one. */
export const cursorConfig = /* @__PURE__ */ defineConfig('cursor', (env) => ({ secret: env.secret(CURSOR_SECRET_ENV, MIN_CURSOR_SECRET_LENGTH) }));
