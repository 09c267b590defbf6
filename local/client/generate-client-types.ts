import { register } from 'node:module';

/**
 * The typed client's types: TypeScript declarations of every path, operation and schema of the
 * OpenAPI document, written by openapi-typescript for openapi-fetch to check calls against.
 */

/** First lines of the generated file. */
const HEADER = [
  '/**',
  ' * Types of the Frontend API, generated from its OpenAPI document by `npm run client`. Do not edit:',
  ' * change the route table or its schemas and run `npm run client` again.',
  ' */',
  '',
].join('\n');

/**
 * openapi-typescript 7 builds its output with the TypeScript compiler API, which TypeScript 7 (the
 * project's type checker) no longer ships (openapi-ts/openapi-typescript#2841). Its `typescript`
 * import is resolved to the TypeScript 6 package installed beside it; nothing else sees it.
 */
const RESOLVE_HOOK = `
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')) {
    return next('@typescript/typescript6', context);
  }
  return next(specifier, context);
}`;

let hookRegistered = false;

/** The generated declarations for an OpenAPI 3.1 document, as one module's text. */
export async function generateClientTypes(document: object): Promise<string> {
  if (!hookRegistered) {
    register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK)}`);
    hookRegistered = true;
  }
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const nodes = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return `${HEADER}${astToString(nodes)}`;
}
