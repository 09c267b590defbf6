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

/**
 * A group of query parameters of which a request may give at most one, as the OpenAPI document
 * states it: one object parameter in the form style, exploded, whose members are the parameters
 * themselves (`email=a` is its member `email`), with `maxProperties: 1`. The object's name appears
 * in no query; it is how a generated client or a contract fuzzer learns the rule.
 */
export interface ExclusiveParameters {
  /** The object parameter's name in the document. */
  readonly name: string;
  /** The parameters that exclude each other, as the query schema names them. */
  readonly members: readonly string[];
}

/** The query schemas that hold a group of mutually exclusive parameters, read by the OpenAPI document. */
export const exclusiveParameters = /* @__PURE__ */ z.registry<ExclusiveParameters>();

/**
 * `query`, refusing a request that gives more than one of `group`'s members (a 400 naming the last
 * member, with `message`), and registered so that the OpenAPI document states the same rule.
 */
export function atMostOneOf<S extends z.ZodMiniObject>(query: S, group: ExclusiveParameters, message: string): S {
  const checked = query.check(
    z.refine((value: Record<string, unknown>) => group.members.filter((member) => value[member] !== undefined).length <= 1, { path: [group.members.at(-1) as string], message }),
  ) as S;
  exclusiveParameters.add(checked, group);
  return checked;
}
