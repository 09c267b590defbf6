import type * as z from '../shared/validation/zod';

/**
 * Whole-number parameters (`pagination[limit]`, `user-id`) arrive as text and are decoded and
 * bounds-checked inside a zod transform, which JSON Schema cannot look into. Rather than copy the
 * bounds into the document, ask the validator itself which whole numbers it accepts.
 */

/** The client-facing type of a parameter that decodes to a whole number. */
export interface IntegerRange {
  readonly type: 'integer';
  readonly minimum: number;
  readonly maximum: number;
}

function accepts(schema: z.core.$ZodType, value: number): boolean {
  const result = (schema as z.ZodMiniType).safeParse(String(value));
  return result.success && result.data === value;
}

/** The accepted value nearest to `limit`, starting from an accepted one; the accepted values form one range. */
function edge(schema: z.core.$ZodType, accepted: number, limit: number): number {
  if (accepts(schema, limit)) return limit;
  let inside = accepted;
  let outside = limit;
  while (Math.abs(outside - inside) > 1) {
    const middle = inside + Math.trunc((outside - inside) / 2);
    if (accepts(schema, middle)) inside = middle;
    else outside = middle;
  }
  return inside;
}

/**
 * The range of whole numbers `schema` turns their decimal text into, or null when it is not such
 * a parameter (it refuses both `0` and `1`, accepts a fraction, or yields something else).
 */
export function decodedIntegerRange(schema: z.core.$ZodType): IntegerRange | null {
  const seed = [1, 0].find((value) => accepts(schema, value));
  if (seed === undefined || (schema as z.ZodMiniType).safeParse(`${seed}.5`).success) return null;
  const minimum = edge(schema, seed, -Number.MAX_SAFE_INTEGER);
  const maximum = edge(schema, seed, Number.MAX_SAFE_INTEGER);
  // One range is what the probe assumes: make sure its ends and a middle value hold.
  const middle = minimum + Math.trunc((maximum - minimum) / 2);
  if (!accepts(schema, middle) || accepts(schema, minimum - 1) || accepts(schema, maximum + 1)) return null;
  return { type: 'integer', minimum, maximum };
}
