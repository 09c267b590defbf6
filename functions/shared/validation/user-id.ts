import * as z from './zod';

/** Largest user id accepted anywhere (ids are JSON numbers, so they must stay exact). */
export const MAX_USER_ID = Number.MAX_SAFE_INTEGER;

/** `user-id` path parameter: a whole number >= 1, written in plain digits. */
export const userIdParameter = z.pipe(
  z.string(),
  z.transform((raw: string, ctx) => {
    const id = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      ctx.issues.push({ code: 'custom', message: `Must be a whole number from 1 to ${MAX_USER_ID}.`, input: raw });
      return z.NEVER;
    }
    return id;
  }),
);

/** Path parameters of `/user/{user-id}` routes. */
export const UserPathSchema = z.strictObject({ 'user-id': userIdParameter });
