import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The schema modules of the AWS SDK's service clients (one file holds every shape of a service). */
export const SDK_SCHEMA_FILE = /[\\/]@aws-sdk[\\/](client-[a-z0-9-]+|nested-clients)[\\/]dist-es[\\/](submodules[\\/][a-z0-9-]+[\\/])?schemas[\\/]schemas_\d+\.js$/;

/**
 * Writes the computed keys of an SDK schema module (`{ [_h]: ... }`, where `const _h = "http"`)
 * as the literal keys they name (`{ "http": ... }`).
 *
 * Why: a computed key could run code (a key object's `toString`), so esbuild keeps every schema
 * whose traits use one, used or not. SESv2's module is 104 KiB and a function that only sends mail
 * needs 4 KiB of it. With literal keys the unused shapes are dropped like any unused constant.
 * The schemas are identical at run time: each key is the string its constant holds. A key whose
 * name is not such a constant is left as it is (and kept, as before).
 */
export function literalSchemaKeys(source: string): string {
  const strings = new Map<string, string>();
  for (const match of source.matchAll(/^const (_\w+|n\d+) = ("[^"\\\n]*");$/gm)) strings.set(match[1]!, match[2]!);
  return source.replace(/\[(_\w+|n\d+)\]:/g, (key, name: string) => {
    const value = strings.get(name);
    return value === undefined ? key : `${value}:`;
  });
}

/** The manifest of an AWS SDK client package, which its runtime config imports for its version. */
export const SDK_CLIENT_MANIFEST = /[\\/]@aws-sdk[\\/](client-[a-z0-9-]+|nested-clients)[\\/]package\.json$/;

/**
 * The fields of an SDK client's package.json that its code reads: `version` (for the user agent),
 * and `name`. esbuild bundles a JSON module imported as a default whole (2-2.5 KiB per client);
 * the dependency lists, scripts and exports map are never read at run time.
 */
export function clientManifest(json: string): string {
  const { name, version } = JSON.parse(json) as { name: string; version: string };
  return JSON.stringify({ name, version });
}

/**
 * esbuild plugin for the AWS SDK clients: their schema modules with literal keys
 * (literalSchemaKeys) and their manifests reduced to what they read (clientManifest).
 */
export const sdkClientsPlugin: Plugin = {
  name: 'aws-sdk-clients',
  setup(build) {
    build.onLoad({ filter: SDK_SCHEMA_FILE }, async (args) => ({ contents: literalSchemaKeys(await readFile(args.path, 'utf8')), loader: 'js' }));
    build.onLoad({ filter: SDK_CLIENT_MANIFEST }, async (args) => ({ contents: clientManifest(await readFile(args.path, 'utf8')), loader: 'json' }));
  },
};
