import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** The error classes of the AWS SDK's service clients (one module per service). */
export const SDK_ERRORS_FILE = /[\\/]@aws-sdk[\\/](client-[a-z0-9-]+|nested-clients)[\\/]dist-es[\\/](submodules[\\/][a-z0-9-]+[\\/])?models[\\/]errors\.js$/;

// One generated error class: a name, a fault, a shape id and the fields its constructor copies
// from its options (declared, then assigned after the prototype is set, in the same order).
const SDK_ERROR_CLASS =
  /^export class (\w+) extends __BaseException \{\n {4}static shapeId = ("[^"\\\n]*");\n {4}name = "\1";\n {4}\$fault = ("client"|"server");\n((?: {4}\w+;\n)*) {4}constructor\(opts\) \{\n {8}super\(\{\n {12}name: "\1",\n {12}\$fault: \3,\n {12}\.\.\.opts,\n {8}\}\);\n {8}Object\.setPrototypeOf\(this, \1\.prototype\);\n((?: {8}this\.\w+ = opts\.\w+;\n)*) {4}\}\n\}$/gm;

// Builds one such class. What an instance gets, and in what order, is what the class syntax gives
// it: the base constructor's properties, then `name`, `$fault` and each field as own data
// properties, the prototype set, then each field copied from the options.
const SDK_ERROR_FACTORY = `
function __errorClass(name, fault, shapeId, fields) {
    const own = (target, key, value) => Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    const ErrorClass = class extends __BaseException {
        static shapeId = shapeId;
        constructor(opts) {
            super({ name, $fault: fault, ...opts });
            own(this, "name", name);
            own(this, "$fault", fault);
            for (const field of fields) own(this, field, undefined);
            Object.setPrototypeOf(this, ErrorClass.prototype);
            for (const field of fields) this[field] = opts[field];
        }
    };
    Object.defineProperty(ErrorClass, "name", { value: name });
    return ErrorClass;
}
`;

/**
 * Writes each error class of an SDK client's errors module as one call to a factory that builds
 * the same class (SDK_ERROR_FACTORY). Why: every class is kept (the schema module registers each
 * one with the deserialiser), and each spells out the same constructor: 35-48 classes are 9-12 KiB
 * of DynamoDB's and KMS's modules, about a quarter of that as calls. A class whose text is not
 * exactly the generated shape is left as written.
 */
export function compactErrorClasses(source: string): { source: string; compacted: number } {
  let compacted = 0;
  const rewritten = source.replace(SDK_ERROR_CLASS, (whole, name: string, shapeId: string, fault: string, declared: string, assigned: string) => {
    const fields = [...declared.matchAll(/(\w+);/g)].map((m) => m[1]!);
    const copies = [...assigned.matchAll(/this\.(\w+) = opts\.(\w+);/g)];
    if (copies.length !== fields.length || copies.some(([, to, from], i) => to !== fields[i] || from !== fields[i])) return whole;
    compacted += 1;
    return `export const ${name} = __errorClass("${name}", ${fault}, ${shapeId}, ${JSON.stringify(fields)});`;
  });
  return { source: compacted ? `${rewritten}\n${SDK_ERROR_FACTORY}` : source, compacted };
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
 * (literalSchemaKeys), their error classes built by one factory (compactErrorClasses) and their
 * manifests reduced to what they read (clientManifest).
 */
export const sdkClientsPlugin: Plugin = {
  name: 'aws-sdk-clients',
  setup(build) {
    build.onLoad({ filter: SDK_SCHEMA_FILE }, async (args) => ({ contents: literalSchemaKeys(await readFile(args.path, 'utf8')), loader: 'js' }));
    build.onLoad({ filter: SDK_ERRORS_FILE }, async (args) => ({ contents: compactErrorClasses(await readFile(args.path, 'utf8')).source, loader: 'js' }));
    build.onLoad({ filter: SDK_CLIENT_MANIFEST }, async (args) => ({ contents: clientManifest(await readFile(args.path, 'utf8')), loader: 'json' }));
  },
};

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
    .flatMap((entry) => (entry.name.startsWith('@') ? readdirSync(join(nodeModules, entry.name)).map((scoped) => join(nodeModules, entry.name, scoped)) : [join(nodeModules, entry.name)]));
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
        canonical = installedCopies(nodeModules, name).filter((copy) => versionOf(copy) === version).sort()[0] ?? root;
        canonicalRoots.set(root, canonical);
      }
      return canonical;
    };
    const filter = new RegExp(`^(${DUAL_HTML_PACKAGES.join('|')})(/.*)?$`);
    build.onResolve({ filter }, async (args) => {
      if (args.pluginData === oneHtmlPackageBuildPlugin) return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind === 'require-call' ? 'import-statement' : args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: oneHtmlPackageBuildPlugin });
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

/**
 * launder without dayjs. sanitize-html calls one launder function, `naughtyHref`, which reads no
 * date; launder requires dayjs at load for its date and time helpers. Its `require('dayjs')` gets
 * `stub`, which throws if called. -7 KiB where sanitize-html is.
 */
export const launderWithoutDayjsPlugin = (stub: string): Plugin => unusedImportPlugin('launder-without-dayjs', /^dayjs$/, /[\\/]node_modules[\\/]launder[\\/]/, stub);

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

/** pdfkit's Node build (the one Node's `import 'pdfkit'` resolves to). */
export const PDFKIT_NODE_BUILD = /[\\/]node_modules[\\/]pdfkit[\\/]js[\\/]pdfkit\.node\.mjs$/;
const PDFKIT_FONT_LOADER = /require\$1\('#standard-fonts\/(\w+)'\)/g;

/**
 * pdfkit with its standard fonts inside the bundle. Its Node build loads each font's metrics at
 * first use with `createRequire(import.meta.url)('#standard-fonts/<Font>')`, resolved against
 * pdfkit's own package.json, which a Lambda bundle does not ship. The fonts the invoices use
 * (`fonts`) become static imports of the same modules; any other font throws, saying why.
 */
export const pdfkitStandardFontsPlugin = (fonts: string[]): Plugin => ({
  name: 'pdfkit-standard-fonts',
  setup(build) {
    build.onLoad({ filter: PDFKIT_NODE_BUILD }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const imports: string[] = [];
      const rewritten = source.replace(PDFKIT_FONT_LOADER, (_whole, font: string) => {
        if (!fonts.includes(font)) return `(() => { throw new Error('The standard font ${font} is not in this bundle (pdfkitStandardFontsPlugin)'); })()`;
        imports.push(`import __pdfkitFont${font} from 'pdfkit/standard-fonts/${font}';`);
        return `__pdfkitFont${font}`;
      });
      if (imports.length !== fonts.length) throw new Error('pdfkit no longer loads its standard fonts as pdfkitStandardFontsPlugin expects: check its Node build');
      return { contents: `${imports.join('\n')}\n${rewritten}`, loader: 'js' };
    });
  },
});
