import * as z from '../shared/validation/zod';
import { decodedIntegerRange } from './decoded-integers';
import { NAMED_SCHEMAS, schemaNames } from './schema-names';

/** A JSON Schema (draft 2020-12, the OpenAPI 3.1 dialect) as the document holds it. */
export type JsonSchema = Record<string, unknown>;

/** Which side of a schema to describe: what a client sends (`input`) or what the API yields (`output`). */
export type SchemaSide = 'input' | 'output';

const COMPONENT_REF = '#/components/schemas/';

/**
 * Formats of JSON Schema 2020-12 and the OpenAPI format registry. zod also writes its own check
 * names as `format` (`starts_with`, `includes`), beside a `pattern` that says the same; validators
 * and code generators do not know those names, so they are left out.
 */
const STANDARD_FORMATS = new Set([
  'date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6', 'uri',
  'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
  'int32', 'int64', 'float', 'double', 'byte', 'binary', 'password',
]);

type OverrideContext = { readonly zodSchema: z.core.$ZodType; readonly jsonSchema: JsonSchema };

/** The stages of a pipe, in order, nested pipes flattened: `pipe(a, pipe(b, c))` → a, b, c. */
function stages(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Partial<z.core.$ZodPipeDef>;
  return def.type === 'pipe' && def.in && def.out ? [...stages(def.in), ...stages(def.out)] : [schema];
}

function isTransform(schema: z.core.$ZodType): boolean {
  return schema._zod.def.type === 'transform';
}

/**
 * Describe a decoding pipe (text → value through a transform) by what a client may send, where
 * JSON Schema would otherwise say nothing: a whole number with the bounds the validator enforces,
 * else the last checking stage before the transform (a date-time, a UUID).
 */
function describeDecoded({ zodSchema, jsonSchema }: OverrideContext): void {
  const parts = stages(zodSchema);
  if (parts.length < 2 || !isTransform(parts[parts.length - 1] as z.core.$ZodType)) return;
  const checked = [...parts].reverse().find((part) => !isTransform(part));
  const replacement = decodedIntegerRange(zodSchema) ?? (checked ? renderPlain(checked) : {});
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, replacement);
}

/**
 * A schema's `z.describe` text, which zod keeps in its global registry: the document renders with
 * its own registry of names (`metadata`), which replaces the global one, so the text is copied here.
 */
function keepDescription({ zodSchema, jsonSchema }: OverrideContext): void {
  const description = z.globalRegistry.get(zodSchema)?.description;
  if (description !== undefined && jsonSchema.description === undefined) jsonSchema.description = description;
}

function dropUnknownFormat({ jsonSchema }: OverrideContext): void {
  if (typeof jsonSchema.format === 'string' && !STANDARD_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
}

function toJsonSchema(schema: z.core.$ZodType, side: SchemaSide): JsonSchema {
  return z.toJSONSchema(schema, {
    io: side,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    metadata: schemaNames,
    override: (context) => {
      keepDescription(context);
      dropUnknownFormat(context);
      if (side === 'output') describeDecoded(context);
    },
  }) as JsonSchema;
}

function renderPlain(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, $defs: _defs, ...rest } = toJsonSchema(schema, 'output');
  return rest;
}

/** Copy of `value` with every `#/$defs/<name>` reference pointing at the component `names[name]`. */
function pointRefs(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((item) => pointRefs(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
        const name = item.slice('#/$defs/'.length);
        return [key, `${COMPONENT_REF}${names[name] ?? name}`];
      }
      return [key, pointRefs(item, names)];
    }),
  );
}

/**
 * Renders zod schemas into the document's JSON Schemas and collects the named ones (see
 * {@link schemaNames}) as `components/schemas`, referenced by `$ref` wherever they are used.
 */
export class ComponentSchemas {
  private readonly components = new Map<string, string>();

  /** Starts with every named resource, as the API returns it, whether or not a route uses it yet. */
  public constructor() {
    for (const [schema] of NAMED_SCHEMAS) this.render(schema, 'output');
  }

  /** The JSON Schema of `schema`, as a client sends it (`input`) or receives it (`output`). */
  public render(schema: z.core.$ZodType, side: SchemaSide): JsonSchema {
    const { $schema: _dialect, $defs: defs = {}, ...root } = toJsonSchema(schema, side);
    const names: Record<string, string> = {};
    for (const [name, definition] of Object.entries(defs as Record<string, JsonSchema>)) {
      names[name] = this.componentName(name, definition, side);
    }
    for (const [name, definition] of Object.entries(defs as Record<string, JsonSchema>)) {
      this.components.set(names[name] as string, JSON.stringify(pointRefs(definition, names)));
    }
    return pointRefs(root, names) as JsonSchema;
  }

  /** A `$ref` to the component a named schema becomes, registering it. */
  public reference(schema: z.core.$ZodType, side: SchemaSide): JsonSchema {
    const rendered = this.render(schema, side);
    if (typeof rendered.$ref !== 'string') throw new Error('Only a named schema can be referenced.');
    return rendered;
  }

  /** Every component schema collected so far, by name. */
  public all(): Record<string, JsonSchema> {
    const names = [...this.components.keys()].sort();
    return Object.fromEntries(names.map((name) => [name, JSON.parse(this.components.get(name) as string) as JsonSchema]));
  }

  /**
   * The component name of a definition: its registered name, unless the request side of a schema
   * differs from its response side (a decoded field), which then becomes `<name>Input`.
   */
  private componentName(name: string, definition: JsonSchema, side: SchemaSide): string {
    const existing = this.components.get(name);
    const text = JSON.stringify(pointRefs(definition, {}));
    if (existing === undefined || existing === text) return name;
    if (side === 'input') return `${name}Input`;
    throw new Error(`Two different schemas are named ${name}.`);
  }
}
