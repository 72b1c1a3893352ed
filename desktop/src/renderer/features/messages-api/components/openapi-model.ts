import type { OpenApiDocument, OpenApiOperation, OpenApiSchema } from '../api/messages-api';

/**
 * Reading an OpenAPI document for people: its operations in order, and each schema as a flat list of
 * fields (`messages[].id` for the fields of a list's items), `$ref`s resolved from the components.
 */
export const METHODS = ['get', 'post', 'put', 'delete'] as const;

export interface OperationEntry {
  method: (typeof METHODS)[number];
  path: string;
  operation: OpenApiOperation;
}

export const operationsOf = (doc: OpenApiDocument): OperationEntry[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] }] : [])),
  );

/** A schema with its `$ref` followed (components/schemas only, as this document uses). */
export const resolve = (doc: OpenApiDocument, schema: OpenApiSchema | undefined): OpenApiSchema | undefined => {
  let current = schema;
  const seen = new Set<string>();
  while (current?.$ref && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    const name = current.$ref.replace(/^#\/components\/schemas\//, '');
    current = doc.components?.schemas?.[name] ? { ...doc.components.schemas[name], description: current.description ?? doc.components.schemas[name].description } : undefined;
  }
  return current;
};

/** One field of a schema, as the screen lists it. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enumValues?: string[];
  defaultValue?: string;
}

/** The type in a few words: "string", "integer", "boolean | "true" | "false"", "array of binary". */
export const typeLabel = (doc: OpenApiDocument, raw: OpenApiSchema | undefined): string => {
  const schema = resolve(doc, raw);
  if (!schema) return 'any';
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(doc, v)).join(' | ');
  if (schema.enum && schema.enum.length === 1) return JSON.stringify(schema.enum[0]);
  if (schema.format === 'binary') return 'file';
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeLabel(doc, schema.items)}[]`;
  if (schema.enum && type === 'string') return 'string';
  return type ?? (schema.properties ? 'object' : 'any');
};

const enumOf = (schema: OpenApiSchema): string[] | undefined => {
  if (schema.enum && schema.enum.length > 1) return schema.enum.map((v) => String(v));
  const variants = schema.anyOf ?? schema.oneOf;
  const values = variants?.flatMap((v) => (v.enum ?? []).map((e) => String(e)));
  return values && values.length > 1 ? values : undefined;
};

/** The fields of an object schema, nested objects and lists of objects flattened with dotted names. */
export const fieldsOf = (doc: OpenApiDocument, raw: OpenApiSchema | undefined, prefix = ''): FieldRow[] => {
  const schema = resolve(doc, raw);
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).flatMap(([name, rawField]) => {
    const field = resolve(doc, rawField) ?? {};
    const path = `${prefix}${name}`;
    const row: FieldRow = {
      name: path,
      type: typeLabel(doc, rawField),
      required: required.has(name),
      description: field.description,
      maxLength: field.maxLength,
      minimum: field.minimum ?? field.exclusiveMinimum,
      maximum: field.maximum,
      enumValues: field.type === 'array' ? undefined : enumOf(field),
      defaultValue: field.default === undefined ? undefined : JSON.stringify(field.default),
    };
    const items = field.type === 'array' ? resolve(doc, field.items) : undefined;
    const nested = items?.properties ? fieldsOf(doc, items, `${path}[].`) : field.properties ? fieldsOf(doc, field, `${path}.`) : [];
    return [row, ...nested];
  });
};

/** A request's example in curl, for the address the app talks to. */
export const curlExample = (base: string, entry: OperationEntry, contentType?: string): string => {
  const url = `${base}${entry.path.replace('{id}', '123')}`;
  const lines = [`curl -X ${entry.method.toUpperCase()} '${url}'`, `  -H 'Authorization: Bearer <token>'`];
  if (entry.method === 'post') lines.push(`  -H 'Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324'`);
  if (contentType === 'application/json') {
    lines.push(`  -H 'Content-Type: application/json'`, `  -d '{"number": "5511987654321", "body": "Olá {{name}}!"}'`);
  } else if (contentType === 'multipart/form-data') {
    lines.push(`  -F 'number=5511987654321'`, `  -F 'body=Segue o boleto'`, `  -F 'medias=@boleto.pdf'`);
  }
  return lines.join(' \\\n');
};
