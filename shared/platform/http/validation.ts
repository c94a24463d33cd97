import type * as z from '../zod';
import { badRequest } from '../errors';

/** Parses one part of the input; a failure becomes a 400 naming the field and the reason. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S | undefined, value: unknown, part: 'params' | 'query' | 'body'): z.output<S> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const where = field || (part === 'body' ? 'body' : part);
  throw badRequest(`${where}: ${issue.message}`, {
    field: field || undefined,
    details: { issues: result.error.issues.slice(0, 10).map((i) => ({ field: i.path.map(String).join('.'), message: i.message })) },
  });
}
