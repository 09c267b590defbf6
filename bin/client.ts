import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../functions/openapi/document';
import { generateClientTypes } from '../local/client/generate-client-types';

/** Where the typed client package keeps the generated types, committed. */
export const CLIENT_TYPES_FILE = 'clients/web/src/api-types.ts';

/**
 * `npm run --silent client -- [FILE]`: writes the typed client's types (openapi-typescript) for the
 * OpenAPI document GET /openapi.json serves to FILE (default clients/web/src/api-types.ts; `-` for
 * standard output). With `--from URL` the document is read from a running API instead.
 */
async function main(args: readonly string[]): Promise<number> {
  const from = args[0] === '--from' ? args[1] : undefined;
  const rest = from === undefined ? args : args.slice(2);
  if (rest.length > 1 || rest[0]?.startsWith('--') || (args[0] === '--from' && from === undefined)) {
    process.stderr.write('Usage: npm run --silent client -- [--from URL] [FILE]\n');
    return 2;
  }
  const document = from === undefined ? openApiDocument() : await (await fetch(from)).json();
  const text = await generateClientTypes(document as object);
  const [target = CLIENT_TYPES_FILE] = rest;
  if (target === '-') process.stdout.write(text);
  else {
    writeFileSync(target, text);
    process.stderr.write(`Wrote the client types to ${target}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
});
