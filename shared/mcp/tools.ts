import * as z from 'zod';
import type { AnyOperation } from '../platform/operation';
import type { RawInput } from '../platform/http/execute';

type JsonSchema = Record<string, unknown>;

const fieldsOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> =>
  schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};

const jsonSchema = (schema: z.ZodType): JsonSchema => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
};

/**
 * A tool's arguments are the operation's path, query and body fields side by side (a body that is
 * not an object goes under `body`), which is what an agent finds easiest to fill in.
 */
export function toolInputSchema(operation: AnyOperation): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of [operation.params, operation.query]) {
    for (const [name, field] of Object.entries(fieldsOf(part))) {
      properties[name] = jsonSchema(field);
      if (part === operation.params || !field.safeParse(undefined).success) required.push(name);
    }
  }
  if (operation.body) {
    if (operation.body instanceof z.ZodObject) {
      const body = jsonSchema(operation.body);
      Object.assign(properties, (body.properties as Record<string, JsonSchema>) ?? {});
      required.push(...((body.required as string[]) ?? []));
    } else {
      properties.body = jsonSchema(operation.body);
      if (!operation.body.safeParse(undefined).success) required.push('body');
    }
  }
  return { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) };
}

/** Splits tool arguments back into the parts the HTTP pipeline would have produced. */
export function splitToolArguments(operation: AnyOperation, args: Record<string, unknown>): RawInput {
  const params: Record<string, string | undefined> = {};
  const query: Record<string, string | undefined> = {};
  const rest: Record<string, unknown> = { ...args };
  for (const name of Object.keys(fieldsOf(operation.params))) {
    if (args[name] !== undefined) params[name] = String(args[name]);
    delete rest[name];
  }
  for (const name of Object.keys(fieldsOf(operation.query))) {
    if (args[name] !== undefined) query[name] = typeof args[name] === 'string' ? (args[name] as string) : String(args[name]);
    delete rest[name];
  }
  const body = operation.body && !(operation.body instanceof z.ZodObject) ? rest.body : operation.body ? rest : undefined;
  return { params, query, body };
}
