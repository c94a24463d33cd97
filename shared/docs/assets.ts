import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The explorer's files come from swagger-ui-dist and are served by this API itself, so /docs works
 * with no network access. In Lambda the bundle step copies them next to the handler
 * (DOCS_ASSET_DIR); locally they are read from node_modules.
 */
export const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

function assetDir(): string {
  if (process.env.DOCS_ASSET_DIR) return process.env.DOCS_ASSET_DIR;
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

const cache = new Map<string, string>();

export async function readDocsAsset(name: string): Promise<string | undefined> {
  // Own keys only: `__proto__`, `constructor` or `toString` are not files.
  if (!Object.hasOwn(DOCS_ASSETS, name)) return undefined;
  let text = cache.get(name);
  if (text === undefined) {
    text = await readFile(join(assetDir(), name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

export const explorerPage = (specUrl: string, assetBase: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Creator Commerce API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${assetBase}/swagger-ui.css">
</head>
<body>
  <div id="explorer"></div>
  <script src="${assetBase}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#explorer', deepLinking: true, persistAuthorization: true });
  </script>
</body>
</html>`;
