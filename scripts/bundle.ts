/**
 * Builds every Lambda entry the way the CDK stacks do (esbuild, ESM, minified, Node 22, AWS SDK v3
 * bundled as far as used) into dist/functions, and reports sizes. `npm run build`; the bench
 * reuses it to measure bundle size and cold import time.
 */
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const FUNCTION_DIR = 'functions';
export const OUT_DIR = join('dist', 'functions');

export function functionEntries(): string[] {
  // One entry per kind of function (api, consumer, queue, jobs, stream); APP_FUNCTION picks what it runs.
  return readdirSync(FUNCTION_DIR).filter((file) => file.endsWith('.ts')).map((file) => join(FUNCTION_DIR, file)).sort();
}

export async function bundleAll(): Promise<{ entry: string; outfile: string; bytes: number }[]> {
  const results = [];
  for (const entry of functionEntries()) {
    const outfile = join(OUT_DIR, relative(FUNCTION_DIR, entry).replace(/\.ts$/, '.mjs'));
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      sourcemap: false,
      mainFields: ['module', 'main'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    });
    results.push({ entry, outfile, bytes: statSync(outfile).size });
  }
  return results;
}

if (process.argv[1]?.endsWith('bundle.ts')) {
  const results = await bundleAll();
  for (const r of results) console.log(`${(r.bytes / 1024).toFixed(0).padStart(7)} KiB  ${r.entry}`);
}
