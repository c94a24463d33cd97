import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * fb55's HTML packages (the parser, DOM and entity codecs under sanitize-html, html-to-text and
 * juice). Each is one TypeScript source published twice, as CommonJS and as ESM, with named exports
 * only, so a `require` of one and an `import` of the other are the same module.
 */
export const DUAL_HTML_PACKAGES = ['entities', 'htmlparser2', 'domhandler', 'domutils', 'dom-serializer', 'domelementtype'];

const PACKAGE_ROOT = (name: string) => new RegExp(`^(.*[\\\\/]node_modules[\\\\/]${name})[\\\\/](.*)$`);

/** The installed copies of a package: `node_modules/<name>` and `node_modules/<parent>/node_modules/<name>`. */
function installedCopies(nodeModules: string, name: string): string[] {
  const parents = readdirSync(nodeModules, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) =>
      entry.name.startsWith('@')
        ? readdirSync(join(nodeModules, entry.name)).map((scoped) => join(nodeModules, entry.name, scoped))
        : [join(nodeModules, entry.name)],
    );
  return [join(nodeModules, name), ...parents.map((parent) => join(parent, 'node_modules', name))].filter((root) => existsSync(join(root, 'package.json')));
}

const versionOf = (root: string) => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * esbuild plugin: one build and one copy of each of fb55's packages per bundle.
 * - A `require` resolves to the ESM build, as an `import` does: esbuild took the CommonJS build for
 *   sanitize-html's and juice's requires and the ESM build for html-to-text's imports, two copies
 *   of the same code (entities alone 160 KiB twice over).
 * - Copies of the same version installed under different parents (npm nests juice's and
 *   htmlparser2's entities 7 because entities 4 holds the top level) resolve to one of them, the
 *   first by path, so every build picks the same one.
 * Different versions stay apart.
 */
export const oneHtmlPackageBuildPlugin: Plugin = {
  name: 'one-html-package-build',
  setup(build) {
    const canonicalRoots = new Map<string, string>();
    const canonicalRoot = (root: string, name: string) => {
      let canonical = canonicalRoots.get(root);
      if (canonical === undefined) {
        const nodeModules = root.slice(0, root.search(/[\\/]node_modules[\\/]/) + '/node_modules'.length);
        const version = versionOf(root);
        canonical =
          installedCopies(nodeModules, name)
            .filter((copy) => versionOf(copy) === version)
            .sort()[0] ?? root;
        canonicalRoots.set(root, canonical);
      }
      return canonical;
    };
    const filter = new RegExp(`^(${DUAL_HTML_PACKAGES.join('|')})(/.*)?$`);
    build.onResolve({ filter }, async (args) => {
      if (args.pluginData === oneHtmlPackageBuildPlugin) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind === 'require-call' ? 'import-statement' : args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: oneHtmlPackageBuildPlugin,
      });
      if (resolved.errors.length) return undefined;
      const name = filter.exec(args.path)![1]!;
      const [, root, rest] = PACKAGE_ROOT(name).exec(resolved.path) ?? [];
      if (!root || !rest) return { path: resolved.path, sideEffects: resolved.sideEffects };
      const canonical = join(canonicalRoot(root, name), rest);
      return { path: existsSync(canonical) ? canonical : resolved.path, sideEffects: resolved.sideEffects };
    });
  },
};

/**
 * esbuild plugin: an import that one package makes but never runs in our functions resolves to
 * `stub`, a module that fails loudly, saying why, if it is ever used. `from` names the importing
 * package's files.
 */
function unusedImportPlugin(name: string, filter: RegExp, from: RegExp, stub: string): Plugin {
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) => (from.test(args.importer) ? { path: stub } : undefined));
    },
  };
}

/**
 * sanitize-html without postcss. sanitize-html requires postcss at load, but calls it only to
 * parse style attributes, and both of our sanitisers turn that off (`parseStyleAttributes: false`:
 * with no `allowedStyles` the parse filtered nothing, it only re-printed the declarations). Its
 * `require('postcss')` gets `stub`, whose `parse` throws; were parsing turned back on,
 * sanitize-html would catch that and drop every style attribute, which the bundle test (bundled
 * against unbundled mail) catches. -58 KiB where sanitize-html is.
 */
export const sanitizeHtmlWithoutPostcssPlugin = (stub: string): Plugin =>
  unusedImportPlugin('sanitize-html-without-postcss', /^postcss$/, /[\\/]node_modules[\\/]sanitize-html[\\/]/, stub);

/** The MCP SDK server's import of its default (ajv) JSON Schema validator. */
export const MCP_AJV_PROVIDER = /^\.\.\/validation\/ajv-provider\.js$/;

/**
 * The MCP SDK server without ajv. The server imports ajv's provider only to build its default
 * validator, for elicitation answers; ours names its own (NO_ELICITATION), so the import resolves
 * to a class that refuses to be built (lambda-mcp-no-ajv.ts). ajv, its formats and URI parser are
 * 130 KiB of the MCP function.
 */
export const mcpWithoutAjvPlugin = (stub: string): Plugin =>
  unusedImportPlugin('mcp-without-ajv', MCP_AJV_PROVIDER, /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](esm|cjs)[\\/]server[\\/]/, stub);

/**
 * pdfkit's browser build in place of its Node build, through lambda-pdfkit.mjs (resolution only:
 * no package code is rewritten). Every `import 'pdfkit'` resolves to that module, and its own
 * import of 'pdfkit' to the browser build, a file pdfkit publishes beside the Node build
 * (`exports['.'].default`). The Node build loads its fonts with a run-time require a bundle cannot
 * follow; the browser build takes them from `registerStdFonts`, which the module calls.
 */
export const pdfkitBrowserBuildPlugin = (shim: string): Plugin => ({
  name: 'pdfkit-browser-build',
  setup(build) {
    build.onResolve({ filter: /^pdfkit$/ }, async (args) => {
      if (args.pluginData === pdfkitBrowserBuildPlugin) return undefined;
      if (args.importer !== shim) return { path: shim };
      const node = await build.resolve('pdfkit', { kind: 'import-statement', resolveDir: args.resolveDir, pluginData: pdfkitBrowserBuildPlugin });
      if (node.errors.length) return { errors: node.errors };
      const browser = join(dirname(node.path), 'pdfkit.browser.mjs');
      if (!existsSync(browser))
        return { errors: [{ text: `pdfkit's browser build is not at ${browser}: check the installed pdfkit (pinned in package.json)` }] };
      return { path: browser };
    });
  },
});
