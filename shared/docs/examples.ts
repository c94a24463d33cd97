/**
 * A request example for the explorer, made from an operation's JSON schema and kept only when the
 * operation's own schema accepts it, so "Try it" sends something that passes validation as it is.
 * Required fields only (plus the first branch of a choice) when that is valid, every field otherwise.
 */
type JsonSchema = Record<string, unknown>;

const FIXED_TIME = '2026-06-01T12:00:00.000Z';

function stringExample(schema: JsonSchema, name: string): string {
  const format = schema.format as string | undefined;
  const pattern = schema.pattern as string | undefined;
  const lower = name.toLowerCase();
  let value: string;
  if (format === 'email' || lower.endsWith('email')) value = 'buyer@example.com';
  else if (format === 'uri' || format === 'url' || /url$/.test(lower)) value = 'https://example.com/page';
  else if (format === 'date-time' || /(at|date|time)$/.test(lower)) value = FIXED_TIME;
  else if (format === 'date') value = '2026-06-01';
  else if (pattern && /\[0-9a-f\]\{24\}/i.test(pattern)) value = '6b0000000000000000000001';
  else if (pattern && /#|\[0-9a-fA-F\]\{6\}/.test(pattern)) value = '#3366ff';
  else if (lower === 'currency') value = 'USD';
  else if (lower.includes('country')) value = 'US';
  else if (lower.includes('code')) value = 'WELCOME10';
  else if (lower === 'html') value = '<p>Hello</p>';
  else value = `Example ${name || 'text'}`.trim();
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = schema.maxLength as number | undefined;
  while (value.length < min) value += 'x';
  return max !== undefined && value.length > max ? value.slice(0, max) : value;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const min =
    (schema.minimum as number | undefined) ??
    ((schema.exclusiveMinimum as number | undefined) !== undefined ? (schema.exclusiveMinimum as number) + 1 : undefined);
  const max =
    (schema.maximum as number | undefined) ??
    ((schema.exclusiveMaximum as number | undefined) !== undefined ? (schema.exclusiveMaximum as number) - 1 : undefined);
  let value = min !== undefined ? Math.max(min, integer ? 1 : 10) : integer ? 1 : 10;
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

export function exampleOf(schema: unknown, name = '', all = false): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as JsonSchema;
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['anyOf', 'oneOf']) {
    const branches = s[key] as JsonSchema[] | undefined;
    if (Array.isArray(branches)) {
      const branch = branches.find((b) => b.type !== 'null') ?? branches[0];
      return exampleOf(branch, name, all);
    }
  }
  if (Array.isArray(s.allOf)) return exampleOf(s.allOf[0], name, all);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([field]) => all || required.has(field))
          .map(([field, sub]) => [field, exampleOf(sub, field, all)]),
      );
    }
    case 'array': {
      const count = Math.max(1, (s.minItems as number | undefined) ?? 1);
      return Array.from({ length: count }, (_, i) => exampleOf(s.items, `${name}${i}`, all));
    }
    case 'string':
      return stringExample(s, name);
    case 'integer':
      return numberExample(s, true);
    case 'number':
      return numberExample(s, false);
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

/** The example, when `accepts` (the operation's own validation) takes it; otherwise none. */
export function validExample(schema: JsonSchema, accepts: (value: unknown) => boolean): unknown {
  // The smallest body first; a body that needs at least one of its optional fields gets them all;
  // one that takes exactly one of them (either this or that) gets each alone in turn.
  const candidates: unknown[] = [exampleOf(schema, '', false), exampleOf(schema, '', true)];
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const minimal = candidates[0];
  if (minimal && typeof minimal === 'object' && !Array.isArray(minimal)) {
    for (const [field, sub] of Object.entries(properties)) if (!(field in minimal)) candidates.push({ ...minimal, [field]: exampleOf(sub, field) });
  }
  return candidates.find((example) => example !== undefined && accepts(example));
}
