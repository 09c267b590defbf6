import * as z from '../shared/validation/zod';

/**
 * The outline of the OpenAPI document GET /openapi.json answers: enough for the route's contract
 * to say what a client receives; the OpenAPI 3.1 schema itself checks the rest in the tests.
 */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string().check(z.regex(/^3\.1\.\d+$/)),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  servers: z.array(z.looseObject({ url: z.string() })),
  paths: z.record(z.string(), z.looseObject({})),
  components: z.looseObject({}),
});
