import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../functions/openapi/document';

/**
 * `npm run --silent openapi -- [FILE]`: writes the OpenAPI 3.1 document of the route table to FILE
 * (standard output without one, or with `-`), the same document GET /openapi.json serves.
 */
function main(args: readonly string[]): number {
  if (args.length > 1 || args[0]?.startsWith('--')) {
    process.stderr.write('Usage: npm run --silent openapi -- [FILE]\n');
    return 2;
  }
  const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  const [target] = args;
  if (target === undefined || target === '-') process.stdout.write(text);
  else {
    writeFileSync(target, text);
    process.stderr.write(`Wrote the OpenAPI document to ${target}\n`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
