import { defineConfig } from '../config/define-config';

/** Variable holding the secret list cursors are sealed with (a per-deployment secret in AWS). */
export const CURSOR_SECRET_ENV = 'CURSOR_SECRET';

/** Shortest secret accepted: 32 characters, about the strength of the AES-256 key derived from it. */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/** The cursor section of the functions that page: the sealing secret, required, never a built-in one. */
export const cursorConfig = /* @__PURE__ */ defineConfig('cursor', (env) => ({ secret: env.secret(CURSOR_SECRET_ENV, MIN_CURSOR_SECRET_LENGTH) }));
