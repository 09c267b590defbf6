import type * as z from './zod';
import { ValidationError, type FieldError } from '../errors';

/** Where a validated value came from; decides how field names are written in `errors[]`. */
export type InputLocation = 'path' | 'query' | 'body' | 'header';

/**
 * Name of the offending parameter as a client wrote it: `pagination[limit]` for a deepObject query
 * parameter, `crop.size` for a body field, `user-id` for a path parameter.
 */
export function fieldName(location: InputLocation, path: readonly PropertyKey[]): string {
  const parts = path.filter((part) => typeof part !== 'number').map(String);
  if (parts.length === 0) return location;
  if (location === 'query') return parts[0] + parts.slice(1).map((part) => `[${part}]`).join('');
  return parts.join('.');
}

/** One issue → one or more field errors (an unknown-keys issue names every unknown key). */
function toFieldErrors(location: InputLocation, issue: z.core.$ZodIssue): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      name: fieldName(location, [...issue.path, key]),
      reason: location === 'query' ? 'Unknown parameter.' : 'Unknown field; it cannot be set here.',
    }));
  }
  return [{ name: fieldName(location, issue.path), reason: issue.message }];
}

/** Parse `input` with `schema`, throwing a 400 {@link ValidationError} that names each bad field. */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, location: InputLocation): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.flatMap((issue) => toFieldErrors(location, issue)));
}
