import { openApiDocument } from '../../functions/openapi/document';
import { deployedFunctions } from '../../functions/deployed-functions';
import { bundledFiles } from '../../lib/bundled-files';
import { OPENAPI_DOCUMENT_FILE } from '../../lib/function-bundling';

/**
 * What each function ships beside its bundle: getOpenApi the OpenAPI document, as `npm run openapi`
 * writes it, every other function nothing (test/bundles/deployed-bundles.test.ts serves it from a
 * bundle; `npx cdk synth` copies it into the function's asset).
 */
describe('the files beside the bundles', () => {
  it('are the OpenAPI document for getOpenApi', () => {
    const [getOpenApi] = deployedFunctions.filter((fn) => fn.name === 'getOpenApi');
    const files = bundledFiles(getOpenApi?.handler ?? '');

    expect(Object.keys(files)).toEqual([OPENAPI_DOCUMENT_FILE]);
    expect(JSON.parse(files[OPENAPI_DOCUMENT_FILE] as string)).toEqual(openApiDocument());
  });

  it('are none for every other function', () => {
    const others = deployedFunctions.filter((fn) => fn.name !== 'getOpenApi');

    expect(others.length).toBeGreaterThan(10);
    for (const fn of others) expect([fn.name, bundledFiles(fn.handler)]).toEqual([fn.name, {}]);
  });
});
