import * as z from '../platform/zod';
import type { AnyOperation } from '../platform/operation';
import type { ToolEntry } from './tool-entry';

type JsonSchema = Record<string, unknown>;

const fieldsOf = (schema: z.ZodMiniType | undefined): Record<string, z.ZodMiniType> =>
  schema instanceof z.ZodMiniObject ? (schema.shape as Record<string, z.ZodMiniType>) : {};

const jsonSchema = (schema: z.ZodMiniType): JsonSchema => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
};

/**
 * A tool's arguments are the operation's path, query and body fields side by side (a body that is
 * not an object goes under `body`), which is what an agent finds easiest to fill in.
 */
export function toolInputSchema(operation: AnyOperation): ToolEntry['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of [operation.params, operation.query]) {
    for (const [name, field] of Object.entries(fieldsOf(part))) {
      properties[name] = jsonSchema(field);
      if (part === operation.params || !field.safeParse(undefined).success) required.push(name);
    }
  }
  if (operation.body) {
    if (operation.body instanceof z.ZodMiniObject) {
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

/** The tools of these operations (those with a tool name), in the form the MCP server serves. */
export function toolCatalog(operations: AnyOperation[]): ToolEntry[] {
  return operations
    .filter((op) => op.tool)
    .map((op) => ({
      name: op.tool!,
      title: op.summary,
      description: [op.summary, op.description, `(${op.method} ${op.path}${op.plan ? `; needs plan ${op.plan}` : ''})`].filter(Boolean).join('\n'),
      inputSchema: toolInputSchema(op),
      annotations: { readOnlyHint: op.method === 'GET', destructiveHint: op.method === 'DELETE' },
      method: op.method,
      path: op.path,
      params: Object.keys(fieldsOf(op.params)),
      query: Object.keys(fieldsOf(op.query)),
      body: !op.body ? 'none' : op.body instanceof z.ZodMiniObject ? 'fields' : 'value',
    }));
}
