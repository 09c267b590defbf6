import * as z from '../shared/validation/zod';
import { PROBLEM_TYPE_BASE } from '../shared/http/problem-catalog';

/**
 * The RFC 9457 problem body every error answer carries, whether a function or API Gateway gave it
 * (functions/shared/http/problem-response.ts and gateway-problems.ts build it). Defined here
 * in zod so that the OpenAPI document and the contract tests use one schema.
 */
export const ProblemSchema = z.object({
  type: z.string().check(z.startsWith(PROBLEM_TYPE_BASE)),
  title: z.string(),
  status: z.number().check(z.int(), z.gte(400), z.lte(599)),
  detail: z.string(),
  code: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/)),
  instance: z.optional(z.string()),
  errors: z.optional(z.array(z.object({ name: z.string(), reason: z.string() }))),
});
