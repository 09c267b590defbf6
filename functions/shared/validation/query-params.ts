import * as z from './zod';

/**
 * Schemas for query parameters as {@link decodeQuery} delivers them (a string, or an array for a
 * repeated key). They convert to the typed value and reject what a client did not mean, instead
 * of clamping or guessing: a scalar given twice, `1.5`, `2^53`, an empty value.
 */

/** A scalar parameter: given once (a repeated key arrives as an array and is refused), not empty. */
export const queryString = z.string().check(z.minLength(1, 'Must not be empty.'));

/** A whole number within [min, max], written in plain decimal digits. */
export function queryInteger(min: number, max: number) {
  return z.pipe(
    queryString,
    z.transform((raw: string, ctx) => {
      const value = /^-?\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || value > max) {
        ctx.issues.push({ code: 'custom', message: `Must be a whole number from ${min} to ${max}.`, input: raw });
        return z.NEVER;
      }
      return value;
    }),
  );
}

/** Most items a list parameter may hold after splitting commas. */
export const MAX_LIST_ITEMS = 50;

/**
 * A list parameter: repeated keys (`status=a&status=b`) or comma-separated values (`status=a,b`),
 * each item validated by `item`.
 */
export function queryList<T extends z.ZodMiniType<unknown, string>>(item: T) {
  return z.pipe(
    z.union([z.string(), z.array(z.string())]),
    z.pipe(
      // Repeats collapse: `status=a,a` means the same as `status=a`.
      z.transform((raw: string | string[]) => [...new Set((Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(',')))]),
      z.array(item).check(z.minLength(1), z.maxLength(MAX_LIST_ITEMS)),
    ),
  );
}

/** An integer list item (ids), as a string that must be plain digits within [min, max]. */
export function integerItem(min: number, max: number) {
  return z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || value > max) {
        ctx.issues.push({ code: 'custom', message: `Each value must be a whole number from ${min} to ${max}.`, input: raw });
        return z.NEVER;
      }
      return value;
    }),
  );
}
