/**
 * Builds every deployed function from its generated entry with the very options the CDK stacks use
 * (LAMBDA_BUILD_OPTIONS: esbuild, ESM, minified, Node 22, AWS SDK v3 bundled as far as used, a
 * linked source map) into dist/functions, and reports sizes
 * with the five largest contributors of each bundle (from esbuild's metafile). `npm run build`;
 * the bench reuses it to measure bundle size and cold import time.
 */
import { build, type Metafile } from 'esbuild';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP } from '../shared/app';
import { ENTRY_DIR, functionSpecs, relativeToRoot, writeFunctionEntry, type FunctionSpec } from '../shared/composition/function-entries';
import { ESBUILD_OPTIONS, LAMBDA_BUILD_OPTIONS } from '../shared/composition/esbuild-options';

export const OUT_DIR = join('dist', 'functions');

export interface BundleResult {
  name: string;
  entry: string;
  outfile: string;
  bytes: number;
  /** The five largest contributors, by package (or source folder), in bytes of minified output. */
  top: { module: string; bytes: number }[];
}

const specName = (spec: FunctionSpec) => (spec.appFunction ? `${spec.kind}:${spec.appFunction}` : spec.kind);

/** A bundle's output bytes grouped by package (node_modules/<pkg>) or by source folder. */
export function contributors(metafile: Metafile, count = 5): { module: string; bytes: number }[] {
  const sums = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
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
    const entry = writeFunctionEntry(APP, spec, { tracing: options.tracing ?? true });
    const outfile = join(OUT_DIR, `${name.replace(':', '-')}${options.tracing ? '.traced' : ''}.mjs`);
    const out = await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [entry], outfile, metafile: true });
    results.push({ name, entry: relativeToRoot(entry), outfile, bytes: statSync(outfile).size, top: contributors(out.metafile) });
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
    results.push({ name, entry: relativeToRoot(entry), outfile, bytes: statSync(outfile).size, top: contributors(out.metafile) });
  }
  return results;
}

export const kib = (bytes: number) => Math.round(bytes / 1024);

if (process.argv[1]?.endsWith('bundle.ts')) {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const results = await bundleAll({ tracing: !process.argv.includes('--no-tracing'), only: only ? new RegExp(only) : undefined });
  for (const r of results) {
    console.log(`${String(kib(r.bytes)).padStart(6)} KiB  ${r.name}`);
    console.log(`          ${r.top.map((t) => `${t.module} ${kib(t.bytes)}`).join(' · ')}`);
  }
}
