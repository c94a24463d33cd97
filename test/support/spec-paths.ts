import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** The shared specs live beside the repository (../shared/spec) in every checkout and in CI. */
export const SPEC_DIR = [join(process.cwd(), '..', 'shared', 'spec'), join(process.cwd(), 'shared-spec')].find((dir) => existsSync(dir));

/** Every `METHOD path` the spec's endpoint tables name (rows like `| GET, POST | /discounts |`). */
export function specRoutes(file: string): string[] {
  if (!SPEC_DIR) return [];
  const text = readFileSync(join(SPEC_DIR, file), 'utf8');
  const routes = new Set<string>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4) continue;
    const methods = cells[1]!
      .split(',')
      .map((m) => m.trim())
      .filter((m) => /^(GET|POST|PUT|PATCH|DELETE)$/.test(m));
    if (!methods.length) continue;
    const paths = [...cells[2]!.matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]!);
    for (const method of methods) for (const path of paths) routes.add(`${method} ${path}`);
  }
  return [...routes];
}

/** Path templates compare by shape: parameter names may differ from the spec's. */
export const routeShape = (route: string) => route.replace(/\{[^}]+\}/g, '{}');
