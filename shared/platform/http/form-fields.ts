/** Form fields arrive as text; JSON-looking values (numbers, objects) are decoded for validation. */
export function decodeFormFields(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const trimmed = value.trim();
    if (/^(-?\d+(\.\d+)?|true|false|null|\{.*\}|\[.*\])$/s.test(trimmed)) {
      try {
        out[name] = JSON.parse(trimmed);
        continue;
      } catch {
        /* keep the text */
      }
    }
    out[name] = value;
  }
  return out;
}
