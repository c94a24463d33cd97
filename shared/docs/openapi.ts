import * as z from '../platform/zod';
import { validExample } from './examples';
import { annotateMoneyUnits } from './money-units';
import type { AnyOperation } from '../platform/operation';
import { operationAccess } from '../platform/permissions';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodMiniType): JsonSchema => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
};

/** The fields of an object schema, for path and query parameters. */
function objectFields(schema: z.ZodMiniType | undefined): [string, z.ZodMiniType, boolean][] {
  if (!schema || !(schema instanceof z.ZodMiniObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodMiniType>).map(([name, field]) => [name, field, !field.safeParse(undefined).success]);
}

const openApiPath = (path: string) => path.replace(/\{(\w+)\+\}/g, '{$1}');

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function operationObject(operation: AnyOperation): Record<string, unknown> {
  const parameters = [
    ...objectFields(operation.params).map(([name, schema]) => ({ name, in: 'path', required: true, schema: toSchema(schema) })),
    ...objectFields(operation.query).map(([name, schema, required]) => ({ name, in: 'query', required, schema: toSchema(schema) })),
  ];
  const pathNames = [...operation.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
  for (const name of pathNames) {
    if (!parameters.some((p) => p.name === name && p.in === 'path')) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  const out: Record<string, unknown> = {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: operation.tags ?? [],
    // What a team member acting through a session token needs to run it (permissions.ts).
    ...(operation.auth === 'key' ? { 'x-access': operationAccess(operation) ?? 'admin' } : {}),
    parameters,
    responses: {
      [String(operation.status ?? 200)]: {
        description: 'Success',
        ...(operation.output ? { content: { 'application/json': { schema: toSchema(operation.output) } } } : {}),
      },
      '400': errorResponse('Invalid input; nothing was changed'),
      ...(operation.auth === 'key'
        ? {
            '401': errorResponse('Missing or invalid API key'),
            '403': errorResponse('Plan too low (FEATURE_LOCKED) or not permitted'),
            '429': errorResponse('Rate limit exceeded; see Retry-After'),
          }
        : {}),
      '404': errorResponse("Not found, or not the caller's"),
    },
  };
  if (operation.auth === 'key') out.security = [{ bearerKey: [] }];
  else out.security = [];
  if (operation.tool) out['x-mcp-tool'] = operation.tool;
  if (operation.plan) out['x-required-plan'] = operation.plan;
  if (operation.body) {
    const schema = toSchema(operation.body);
    const example = validExample(schema, (value) => operation.body!.safeParse(value).success);
    const content: Record<string, unknown> = {};
    const type = operation.bodyType ?? 'json';
    if (type === 'json' || type === 'json-or-multipart' || type === 'json-or-form')
      content['application/json'] = { schema, ...(example !== undefined ? { example } : {}) };
    if (type === 'json-or-form') content['application/x-www-form-urlencoded'] = { schema };
    if (type === 'multipart' || type === 'json-or-multipart') content['multipart/form-data'] = { schema };
    out.requestBody = { required: !operation.body.safeParse(undefined).success && !operation.body.safeParse({}).success, content };
  }
  return out;
}

/** The OpenAPI 3.1 contract, derived from the operation list alone. */
export function buildOpenApi(operations: AnyOperation[], baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const path = openApiPath(operation.path);
    const object = operationObject(operation);
    annotateMoneyUnits(object);
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = object;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creator Commerce API',
      version: '1.0.0',
      description:
        "Commerce and creator-growth API. Authenticate with `Authorization: Bearer pk_live_...` or `pk_test_...`; the key's mode decides which records are visible. Money: a field ending in `Cents` is integer cents; `price`, `amount` and their compounds are decimal major units (19.99). Every money field states its unit.",
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: { bearerKey: { type: 'http', scheme: 'bearer', description: 'pk_live_... or pk_test_... API key, or a session token (JWT)' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string' },
            message: { type: 'string' },
            code: { type: 'string' },
            field: { type: 'string' },
            details: { type: 'object' },
          },
        },
      },
    },
  };
}

/**
 * The contract of a fixed set of operations, built once (on first use) and served with the
 * request's base URL as its only server: building it walks every schema (hundreds of
 * milliseconds), and nothing in it but `servers` depends on the request.
 */
export function cachedContract(operations: () => AnyOperation[]): (baseUrl: string) => Record<string, unknown> {
  let contract: Record<string, unknown> | undefined;
  return (baseUrl) => {
    contract ??= buildOpenApi(operations(), '');
    return { ...contract, servers: [{ url: baseUrl }] };
  };
}
