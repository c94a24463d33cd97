/**
 * The import graph of the project's own TypeScript (shared/, functions/, lib/, bin/), its cycles,
 * and the imports that break the layering of docs/architecture.md ("Layers"). `npx tsx scripts/import-graph.ts` prints
 * them; test/infra/architecture.test.ts asserts there are none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '..');
export const SOURCE_DIRS = ['shared', 'functions', 'lib', 'bin'];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Project-relative file → the project files it imports (type-only imports included: they still couple). */
export function importGraph(root = ROOT): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((entry) => resolveImport(file, entry.fileName)).filter((target): target is string => !!target);
    graph.set(relative(root, file), [...new Set(targets.map((target) => relative(root, target)))]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/**
 * The layers, lowest first. A file may import its own layer (within the rules below) and any lower
 * one, never a higher one.
 *   0 kernel:       shared/platform, shared/store
 *   1 capabilities: shared/<capability>/ (may import another capability's public modules, never
 *                   its repository)
 *   2 adapters:     shared/adapters/ (implement kernel ports; provider adapters may use the
 *                   capability they serve)
 *   3 composition:  shared/app.ts, shared/composition/, shared/local/, functions/, lib/, bin/
 */
export function layerOf(file: string): number {
  if (file.startsWith('shared/platform/') || file.startsWith('shared/store/')) return 0;
  if (file.startsWith('shared/adapters/')) return 2;
  if (file === 'shared/app.ts' || file.startsWith('shared/composition/') || file.startsWith('shared/local/')) return 3;
  if (file.startsWith('shared/')) return 1;
  return 3;
}

/**
 * A capability's manifest (its index.ts) provides the ports it owns (`ports` factories), so it may
 * import provider adapters (shared/adapters/<provider>/), never the kernel ports' aws/ or local/.
 */
const manifestProvidesPort = (from: string, to: string) =>
  /^shared\/[^/]+\/index\.ts$/.test(from) && layerOf(from) === 1 && to.startsWith('shared/adapters/') && !/^shared\/adapters\/(aws|local)\//.test(to);

const capabilityOf = (file: string) => (layerOf(file) === 1 ? file.split('/')[1] : undefined);

export interface Violation {
  from: string;
  to: string;
  why: string;
}

export function layerViolations(graph: Map<string, string[]>): Violation[] {
  const violations: Violation[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (layerOf(to) > layerOf(from) && !manifestProvidesPort(from, to))
        violations.push({ from, to, why: `layer ${layerOf(from)} imports layer ${layerOf(to)}` });
      const [a, b] = [capabilityOf(from), capabilityOf(to)];
      if (a && b && a !== b && /\/repository\.ts$/.test(to)) violations.push({ from, to, why: `${a} reads ${b}'s repository; call ${b}'s service instead` });
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const graph = importGraph();
  const loops = cycles(graph);
  const violations = layerViolations(graph);
  for (const loop of loops) console.log(`loop (${loop.length}): ${loop.join(' ')}`);
  for (const v of violations) console.log(`upward: ${v.from} -> ${v.to} (${v.why})`);
  console.log(`${graph.size} files, ${loops.length} loops, ${violations.length} layer violations`);
  process.exitCode = loops.length || violations.length ? 1 : 0;
}
