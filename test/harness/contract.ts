import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../functions/openapi/document';

/**
 * Checks answers against the OpenAPI document: the status must be one the operation documents,
 * the content type one it lists for that status, the body valid against that schema (JSON Schema
 * draft 2020-12, formats included), the headers it marks required present, and a problem's
 * `status` the HTTP status. The document is generated from the route table, so this checks the
 * code against its own contract.
 */

/** What the checks look at: an {@link InvokeResponse} fits, so does any HTTP answer. */
export interface ContractResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or the text when it is not JSON ('' when empty). */
  readonly body: unknown;
}

/** An operation of the document, as far as the checks read it. */
export type Operation = { parameters?: { name: string; in: string; schema: Record<string, unknown> }[]; responses: Record<string, ResponseObject> };
type ResponseObject = {
  headers?: Record<string, { required?: boolean; schema: object }>;
  content?: Record<string, { schema: object }>;
};

const COMPONENTS_ID = 'https://frontend-api.invalid/components';

/** Point the document's `#/components/schemas/X` references at the schema registered with Ajv. */
function standalone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(standalone);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')
        ? [key, `${COMPONENTS_ID}#/$defs/${item.slice('#/components/schemas/'.length)}`]
        : [key, standalone(item)],
    ),
  );
}

let ajv: Ajv2020 | undefined;
const operations = new Map<string, Operation>();
const validators = new Map<object, ValidateFunction>();

/**
 * The validator of one schema of the document (draft 2020-12, strict mode, formats checked), its
 * `#/components/schemas/…` references resolved; compiled once per schema object.
 */
export function compileDocumentSchema(schema: object): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: COMPONENTS_ID, $defs: standalone(openApiDocument().components.schemas) as object });
  }
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(standalone(schema) as object);
    validators.set(schema, validate);
  }
  return validate;
}

/** The operation of a route in the document, by its operationId (the route name). */
export function operationOf(name: string): Operation {
  if (operations.size === 0) {
    for (const item of Object.values(openApiDocument().paths)) {
      for (const operation of Object.values(item) as (Operation & { operationId: string })[]) operations.set(operation.operationId, operation);
    }
  }
  const operation = operations.get(name);
  if (!operation) throw new Error(`The OpenAPI document has no operation ${name}.`);
  return operation;
}

function schemaErrors(schema: object, value: unknown, where: string): string[] {
  const validate = compileDocumentSchema(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${where}${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`);
}

function headerViolations(documented: ResponseObject['headers'], response: ContractResponse): string[] {
  return Object.entries(documented ?? {}).flatMap(([name, header]) => {
    const value = response.headers[name.toLowerCase()];
    if (value === undefined) return header.required ? [`header ${name} is missing`] : [];
    const typed = (header.schema as { type?: string }).type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
    return schemaErrors(header.schema, typed, `header ${name}`);
  });
}

function bodyViolations(documented: ResponseObject['content'], response: ContractResponse): string[] {
  const mediaType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!documented) return response.body === '' ? [] : [`a body is not documented, got ${mediaType || 'one without content type'}`];
  const content = documented[mediaType];
  if (!content) return [`content type "${mediaType}" is not documented (${Object.keys(documented).join(', ')})`];
  if (typeof response.body === 'string') return [`the ${mediaType} body is not JSON: ${response.body.slice(0, 200)}`];
  const errors = schemaErrors(content.schema, response.body, 'body');
  const problemStatus = (response.body as { status?: unknown } | null)?.status;
  if (mediaType === 'application/problem+json' && problemStatus !== response.status) {
    errors.push(`body status ${String(problemStatus)} differs from the HTTP status ${response.status}`);
  }
  return errors;
}

/** Every way `response` departs from what the document says route `name` answers; empty when it matches. */
export function contractViolations(name: string, response: ContractResponse): string[] {
  const { responses } = operationOf(name);
  const documented = responses[String(response.status)];
  if (!documented) return [`status ${response.status} is not documented (${Object.keys(responses).join(', ')})`];
  return [...headerViolations(documented.headers, response), ...bodyViolations(documented.content, response)];
}

/** Throw, naming every violation, when `response` is not what the document says route `name` answers. */
export function assertMatchesContract(name: string, response: ContractResponse): void {
  const violations = contractViolations(name, response);
  if (violations.length > 0) {
    const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    throw new Error(`The ${response.status} answer of ${name} breaks the OpenAPI contract:\n- ${violations.join('\n- ')}\nbody: ${body.slice(0, 1000)}`);
  }
}
