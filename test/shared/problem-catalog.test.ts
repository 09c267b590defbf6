import { buildOpenApiDocument } from '../../functions/openapi/document';
import * as fetchErrors from '../../functions/avatars/fetch/errors';
import * as imageErrors from '../../functions/avatars/image/errors';
import * as errors from '../../functions/shared/errors';
import { GATEWAY_RESPONSE_TYPES, gatewayProblem } from '../../functions/shared/http/gateway-problems';
import { PROBLEMS, problemType, type ProblemCode } from '../../functions/shared/http/problem-catalog';
import { problemBody, toProblemError } from '../../functions/shared/http/problem-response';

/**
 * The problem catalog is the one source of the error vocabulary: the error classes, the gateway's
 * own answers and the OpenAPI document's examples must all say exactly what it says.
 */

/** One instance of every error class the functions throw. */
const instances: errors.ProblemError[] = [
  new errors.ValidationError([{ name: 'x', reason: 'y' }]),
  new errors.MalformedBodyError(),
  new errors.UnauthorizedError(),
  new errors.ForbiddenError(),
  new errors.NotFoundError(),
  new errors.ConflictError('taken'),
  new errors.PreconditionFailedError(),
  new errors.PayloadTooLargeError('too big'),
  new errors.UnsupportedMediaTypeError(),
  new errors.ServiceUnavailableError(),
  new errors.InternalError(new Error('bug')),
  new fetchErrors.UnsupportedUrlError(),
  new fetchErrors.AddressRefusedError('example.com', '10.0.0.1'),
  new fetchErrors.UpstreamFailedError('down'),
  new fetchErrors.TooManyRedirectsError(3),
  new fetchErrors.UpstreamTimeoutError('slow'),
  new imageErrors.UnsupportedImageError(),
  new imageErrors.InvalidImageError('truncated'),
  new imageErrors.TooManyPixelsError(40),
  new imageErrors.CropOutsideImageError([{ name: 'crop.left', reason: 'outside' }]),
];

function examplesOf(document: ReturnType<typeof buildOpenApiDocument>): { code: ProblemCode; title: string; status: number; type: string }[] {
  return Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) =>
      Object.values((operation.responses ?? {}) as Record<string, { content?: Record<string, { examples?: Record<string, { value: never }> }> }>).flatMap((response) =>
        Object.values(response.content?.['application/problem+json']?.examples ?? {}).map((example) => example.value),
      ),
    ),
  );
}

describe('the problem catalog', () => {
  it.each(instances.map((error) => [error.name, error] as const))('%s answers with its code\'s status, title and headers', (_name, error) => {
    const entry = PROBLEMS[error.code];
    expect(error.status).toBe(entry.status);
    expect(error.title).toBe(entry.title);
    expect(error.headers).toMatchObject('headers' in entry ? entry.headers : {});
    expect(problemBody(error).type).toBe(problemType(error.code));
  });

  it('turns anything unexpected into internal_error without its message', () => {
    const problem = toProblemError(new TypeError('secret internals'));
    expect(problem.code).toBe('internal_error');
    expect(problem.detail).not.toContain('secret');
  });

  it.each([...GATEWAY_RESPONSE_TYPES])('renders the gateway answer %s from its code', (type) => {
    const { status, headers, body } = gatewayProblem(type);
    const entry = PROBLEMS[body.code];
    expect({ status, title: body.title, type: body.type }).toEqual({ status: entry.status, title: entry.title, type: problemType(body.code) });
    expect(headers).toEqual('headers' in entry ? entry.headers : {});
  });

  it('gives every example of the OpenAPI document the status and title of its code', () => {
    const examples = examplesOf(buildOpenApiDocument());
    expect(examples.length).toBeGreaterThan(20);
    for (const example of examples) {
      expect({ status: example.status, title: example.title, type: example.type }).toEqual({
        status: PROBLEMS[example.code].status,
        title: PROBLEMS[example.code].title,
        type: problemType(example.code),
      });
    }
  });

  it('has no code that neither an error class, the gateway nor the document uses', () => {
    const used = new Set<string>([
      ...instances.map((error) => error.code),
      ...GATEWAY_RESPONSE_TYPES.map((type) => gatewayProblem(type).body.code),
      ...examplesOf(buildOpenApiDocument()).map((example) => example.code),
    ]);
    expect(Object.keys(PROBLEMS).filter((code) => !used.has(code))).toEqual([]);
  });
});
