import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpWithoutAjvPlugin, oneHtmlPackageBuildPlugin, pdfkitBrowserBuildPlugin, sanitizeHtmlWithoutPostcssPlugin } from './esbuild-plugins';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The esbuild settings every function is bundled with, shared by the CDK construct and
 * `npm run build` / the bench, so what is measured is what ships.
 */
/**
 * Packages swapped for a lighter equivalent in the Lambda bundles only (the local runtime and the
 * tests run the originals). Each saves at least 20 KiB, rewrites no third-party code, pins the
 * package it concerns to its exact version in package.json, and has a differential test (the
 * bundle answers as the unbundled code does: test/unit/lambda-bundles.test.ts):
 * - the SDK's default credential chain for the environment provider, which is all Lambda uses
 *   (shared/composition/lambda-credentials.ts): -130 KiB in every function;
 * - cheerio for its `slim` build in juice: juice always parses with htmlparser2 (it passes
 *   `xml` options, which select htmlparser2 in cheerio 1.x), so parse5 and the URL loader (undici,
 *   encoding-sniffer, whatwg-encoding and their code-page tables: ~1.6 MiB) are never run;
 * - node-fetch for Node's own fetch, which the Google clients are given anyway
 *   (shared/composition/lambda-native-fetch.ts): -83 KiB in the sheets functions.
 */
export const LAMBDA_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': join(ROOT, 'shared', 'composition', 'lambda-credentials.ts'),
  cheerio: 'cheerio/slim',
  'node-fetch': join(ROOT, 'shared', 'composition', 'lambda-native-fetch.ts'),
};

export const ESBUILD_OPTIONS = {
  format: 'esm' as const,
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  // ESM bundles of CommonJS dependencies still call require(); give them one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  alias: LAMBDA_ALIASES,
  // Statements labelled `LOCAL_RUNTIME:` run in the local runtime only: a capability's local port
  // factory reaches its local adapter (CSV files, …) that way, and the deployed functions, which
  // only ever call the `aws` factories, leave the adapter and its packages out.
  dropLabels: ['LOCAL_RUNTIME'],
  // esbuild-plugins.ts, resolution only (no plugin rewrites a package's code): one ESM build and
  // one copy of each HTML package, and sanitize-html without postcss (with the npm overrides in
  // package.json that leave one version of each, the renderer went from 1,058-1,155 to 602-693
  // KiB); the MCP server without ajv, which it never uses (-130 KiB).
  // Plugins need esbuild's async API: the CDK runs it on a worker (lib/constructs/bundle-sync.ts).
  plugins: [
    oneHtmlPackageBuildPlugin,
    sanitizeHtmlWithoutPostcssPlugin(join(ROOT, 'shared', 'composition', 'lambda-no-postcss.ts')),
    mcpWithoutAjvPlugin(join(ROOT, 'shared', 'composition', 'lambda-mcp-no-ajv.ts')),
    // pdfkit's own browser build with the two standard fonts the invoices draw with (render
    // function only): its Node build requires them at run time, which a bundle cannot follow.
    pdfkitBrowserBuildPlugin(join(ROOT, 'shared', 'composition', 'lambda-pdfkit.mjs')),
  ],
};

/**
 * The whole build of one function, as the stacks deploy it and the bench measures it
 * (lib/constructs/function-code.ts, scripts/bundle.ts): one call to esbuild's API with these
 * options and an `outdir`, so nothing is translated between the two.
 *
 * The source map ships beside the bundle (mappings and names, not the sources) but Node does not
 * read it at start: with `--enable-source-maps` Node parses the map on every cold start, measured
 * +54 ms on api:sales (117 -> 171 ms median, Node 20; +22 ms even without the sources). To read
 * mapped stack traces while debugging, set `NODE_OPTIONS=--enable-source-maps` on the function.
 */
export const LAMBDA_BUILD_OPTIONS = {
  ...ESBUILD_OPTIONS,
  bundle: true,
  platform: 'node' as const,
  sourcemap: 'linked' as const,
  sourcesContent: false,
  logLevel: 'error' as const,
  // ESM code splitting: what a function loads with `import()` on first use (the X-Ray tracer, an
  // AWS port's SDK client, the renderer's PDF part) is a chunk of its own, not parsed and run at
  // every cold start. The entry is `index.mjs` in the output folder (callers give `outdir`), its
  // chunks beside it in `chunks/`; what is shared by several lazy parts is a chunk too.
  splitting: true,
  entryNames: 'index',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
};
