/**
 * The esbuild settings every function is bundled with, shared by the CDK construct and
 * `npm run build` / the bench, so what is measured is what ships.
 */
export const ESBUILD_OPTIONS = {
  format: 'esm' as const,
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  // ESM bundles of CommonJS dependencies still call require(); give them one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};
