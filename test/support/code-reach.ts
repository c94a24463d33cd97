import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../shared/composition/function-entries';

/**
 * For tests only: which ports (`ports.<name>`, `ports?.<name>`) the project files these modules
 * import name, transitively. The build never decides from this (it reads the manifests'
 * declarations); a test uses it to prove the declarations cover what the code reaches. A superset:
 * a port named in an imported file counts, called or not.
 */
const PORT_ACCESS = /\bports\??\.(\w+)/g;
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g;
const scanned = new Map<string, { imports: string[]; ports: string[] }>();

function resolveSource(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function scan(file: string): { imports: string[]; ports: string[] } {
  let found = scanned.get(file);
  if (!found) {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(IMPORT_SPECIFIER)].map((m) => resolveSource(file, m[1]!)).filter((f): f is string => !!f);
    found = { imports: [...new Set(imports)], ports: [...new Set([...text.matchAll(PORT_ACCESS)].map((m) => m[1]!))] };
    scanned.set(file, found);
  }
  return found;
}

/** Every port name the files reachable from these modules (paths below the project root, no extension) name. */
export function portsNamedFrom(modules: string[]): Set<string> {
  const seen = new Set<string>();
  const ports = new Set<string>();
  const pending = modules.map((m) => resolveSource(join(PROJECT_ROOT, 'x.ts'), `./${m}`)).filter((f): f is string => !!f);
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { imports, ports: named } = scan(file);
    for (const port of named) ports.add(port);
    pending.push(...imports);
  }
  return ports;
}
