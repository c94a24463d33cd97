/**
 * Builds every deployed function from its generated entry with the very options the CDK stacks use
 * (LAMBDA_BUILD_OPTIONS: esbuild, ESM with code splitting, minified, Node 22, AWS SDK v3 bundled as
 * far as used, a linked source map) into dist/functions/<function>/ (`index.mjs` and its chunks),
 * and reports sizes (what a cold start imports, and the whole package) with the five largest
 * contributors to what it imports (from esbuild's metafile). `npm run build`;
 * the bench reuses it to measure bundle size and cold import time.
 */
import { build, type Metafile } from 'esbuild';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP } from '../shared/app';
import { ENTRY_DIR, functionSpecs, relativeToRoot, writeFunctionEntry, type FunctionSpec } from '../shared/composition/function-entries';
import { ESBUILD_OPTIONS, LAMBDA_BUILD_OPTIONS } from '../shared/composition/esbuild-options';

export const OUT_DIR = join('dist', 'functions');

export interface BundleResult {
  name: string;
  entry: string;
  /** The function's `index.mjs`: what Lambda imports. */
  outfile: string;
  /** Every JavaScript file of the package: the entry and all its chunks. */
  bytes: number;
  /** What a cold start imports: the entry and the chunks it imports statically (lazy chunks left out). */
  importBytes: number;
  /** The chunks loaded by `import()`, on first use. */
  lazyChunks: string[];
  /** The five largest contributors to what a cold start imports, by package (or source folder), in bytes of minified output. */
  top: { module: string; bytes: number }[];
}

const specName = (spec: FunctionSpec) => (spec.appFunction ? `${spec.kind}:${spec.appFunction}` : spec.kind);

/** The outputs a cold start loads: the entry and, transitively, what it imports statically. */
export function staticOutputs(metafile: Metafile, entryOutput: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !metafile.outputs[path]) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entryOutput);
  return [...seen];
}

/** The outputs of one function's build: its entry, what a cold start loads, and the lazy chunks. */
export function describeOutputs(metafile: Metafile) {
  const scripts = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
  const entry = scripts.find((path) => /(^|\/)index\.mjs$/.test(path));
  if (!entry) throw new Error('the build has no entry output');
  const loaded = staticOutputs(metafile, entry);
  const bytesOf = (paths: string[]) => paths.reduce((sum, path) => sum + metafile.outputs[path]!.bytes, 0);
  return {
    outfile: entry,
    bytes: bytesOf(scripts),
    importBytes: bytesOf(loaded),
    lazyChunks: scripts.filter((path) => !loaded.includes(path)),
    top: contributors(metafile, 5, loaded),
  };
}

/** A bundle's output bytes (of the given outputs, default all) grouped by package (node_modules/<pkg>) or by source folder. */
export function contributors(metafile: Metafile, count = 5, outputs?: string[]): { module: string; bytes: number }[] {
  const sums = new Map<string, number>();
  for (const [name, output] of Object.entries(metafile.outputs)) {
    if (outputs && !outputs.includes(name)) continue;
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
      sums.set(pkg, (sums.get(pkg) ?? 0) + bytesInOutput);
    }
  }
  return [...sums]
    .map(([module, bytes]) => ({ module, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

/** `tracing` as the default deploy has it (X-Ray on) unless told otherwise (`-c tracing=off`). */
export async function bundleAll(options: { tracing?: boolean; only?: RegExp } = {}): Promise<BundleResult[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const results: BundleResult[] = [];
  for (const spec of functionSpecs(APP)) {
    const name = specName(spec);
    if (options.only && !options.only.test(name)) continue;
    const tracing = options.tracing ?? true;
    const entry = writeFunctionEntry(APP, spec, { tracing });
    const outdir = join(OUT_DIR, `${name.replace(':', '-')}${tracing ? '.traced' : ''}`);
    rmSync(outdir, { recursive: true, force: true });
    const out = await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [entry], outdir, metafile: true });
    const outputs = describeOutputs(out.metafile);
    results.push({ name, entry: relativeToRoot(entry), ...outputs });
  }
  return results;
}

/**
 * The floor every function is measured beside: the DynamoDB client and its document client alone,
 * built once as a plain esbuild bundle (the SDK's own defaults, as issue 18 measured it) and once
 * with the functions' options (their aliases: the environment credential provider only).
 */
export async function bundleFloor(): Promise<BundleResult[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const entry = join(ENTRY_DIR, 'floor.ts');
  mkdirSync(ENTRY_DIR, { recursive: true });
  writeFileSync(
    entry,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n",
  );
  const results: BundleResult[] = [];
  for (const [name, options] of [
    ['floor (SDK defaults)', { ...ESBUILD_OPTIONS, alias: {} }],
    ['floor (function options)', ESBUILD_OPTIONS],
  ] as const) {
    const outfile = join(OUT_DIR, `${name.replace(/\W+/g, '-')}.mjs`);
    const out = await build({ ...options, entryPoints: [entry], outfile, bundle: true, platform: 'node', sourcemap: false, metafile: true, logLevel: 'error' });
    const bytes = statSync(outfile).size;
    results.push({ name, entry: relativeToRoot(entry), outfile, bytes, importBytes: bytes, lazyChunks: [], top: contributors(out.metafile) });
  }
  return results;
}

/**
 * The official Stripe SDK alone, bundled with the functions' options: its own size and cold
 * import, the allowance of the functions wired to the Stripe provider (they carry it whole).
 */
export async function bundleStripeAlone(): Promise<BundleResult> {
  mkdirSync(ENTRY_DIR, { recursive: true });
  const entry = join(ENTRY_DIR, 'stripe-alone.ts');
  writeFileSync(entry, "import Stripe from 'stripe';\nexport default Stripe;\n");
  const outfile = join(OUT_DIR, 'stripe-alone.mjs');
  const out = await build({
    ...ESBUILD_OPTIONS,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    sourcemap: false,
    metafile: true,
    logLevel: 'error',
  });
  const bytes = statSync(outfile).size;
  return { name: 'stripe SDK alone', entry: relativeToRoot(entry), outfile, bytes, importBytes: bytes, lazyChunks: [], top: contributors(out.metafile) };
}

export const kib = (bytes: number) => Math.round(bytes / 1024);

if (process.argv[1]?.endsWith('bundle.ts')) {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const results = await bundleAll({ tracing: !process.argv.includes('--no-tracing'), only: only ? new RegExp(only) : undefined });
  for (const r of results) {
    console.log(`${String(kib(r.importBytes)).padStart(6)} KiB at import, ${kib(r.bytes)} KiB in all (${r.lazyChunks.length} lazy chunks)  ${r.name}`);
    console.log(`          ${r.top.map((t) => `${t.module} ${kib(t.bytes)}`).join(' · ')}`);
  }
}
