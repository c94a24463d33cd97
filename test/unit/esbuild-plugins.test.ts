import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clientManifest, compactErrorClasses, literalSchemaKeys, oneHtmlPackageBuildPlugin, SDK_CLIENT_MANIFEST, SDK_ERRORS_FILE, SDK_SCHEMA_FILE } from '../../shared/composition/esbuild-plugins';
import { PROJECT_ROOT } from '../../shared/composition/function-entries';

describe('literalSchemaKeys', () => {
  it('writes each computed key that names a string constant of the module as that string', () => {
    const source = [
      'const _h = "http";',
      'const _hE = "httpError";',
      'const n0 = "com.amazonaws.kms";',
      'export var Encrypt$ = [9, n0, _E, { [_h]: ["POST", "/", 200] }, () => A$, () => B$];',
      'export var Err$ = [-3, n0, _Er, { [_e]: _c, [_hE]: 400, [n0]: 1 }, [_m], [0]];',
    ].join('\n');
    const out = literalSchemaKeys(source);
    expect(out).toContain('{ "http": ["POST", "/", 200] }');
    expect(out).toContain('{ [_e]: _c, "httpError": 400, "com.amazonaws.kms": 1 }');
    // Values and references stay as they were.
    expect(out).toContain('[9, n0, _E,');
    expect(out).toContain('const _h = "http";');
  });

  it('leaves a key alone when its constant is not a plain string literal', () => {
    const source = ['const _a = "x\\"y";', 'const _b = `t`;', 'let _c = "z";', 'var X = { [_a]: 1, [_b]: 2, [_c]: 3 };'].join('\n');
    expect(literalSchemaKeys(source)).toBe(source);
  });
});

describe('clientManifest', () => {
  it('keeps the name and version an SDK client reads, and nothing else', () => {
    const manifest = JSON.stringify({ name: '@aws-sdk/client-kms', version: '3.1.0', scripts: { build: 'x' }, dependencies: { tslib: '^2' }, exports: {} });
    expect(JSON.parse(clientManifest(manifest))).toEqual({ name: '@aws-sdk/client-kms', version: '3.1.0' });
  });
});

describe('compactErrorClasses', () => {
  type ErrorClass = (new (opts: Record<string, unknown>) => Error) & { shapeId?: string };
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const clients = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith('@aws-sdk/client-'));
  const dir = mkdtempSync(join(tmpdir(), 'sdk-errors-'));

  /** Everything an error class and one of its errors show: own properties in order with their descriptors, prototype chain, statics. */
  const observe = (ErrorClass: ErrorClass, Base: unknown, opts: Record<string, unknown>) => {
    const error = new ErrorClass(opts);
    const own = Object.getOwnPropertyNames(error).map((key) => {
      const { value, ...attributes } = Object.getOwnPropertyDescriptor(error, key)!;
      return [key, attributes, key === 'stack' ? typeof value : value];
    });
    return {
      own,
      json: JSON.stringify(error),
      prototype: Object.getPrototypeOf(error) === ErrorClass.prototype,
      chain: [error instanceof ErrorClass, error instanceof (Base as ErrorClass), error instanceof Error],
      extendsBase: Object.getPrototypeOf(ErrorClass) === Base,
      statics: Object.getOwnPropertyNames(ErrorClass).filter((key) => key !== 'prototype').map((key) => [key, Object.getOwnPropertyDescriptor(ErrorClass, key)]),
    };
  };

  it.each(clients)('%s: each error class built by the factory builds the errors the generated class builds', async (client) => {
    const file = join(PROJECT_ROOT, 'node_modules', client, 'dist-es', 'models', 'errors.js');
    expect(SDK_ERRORS_FILE.test(file)).toBe(true);
    const source = readFileSync(file, 'utf8');
    const { source: compacted, compacted: count } = compactErrorClasses(source);
    const classes = source.match(/^export class /gm)?.length ?? 0;
    // Every class of the generated shape is compacted (dynamodb-streams, an older generator without
    // shape ids, has none; DynamoDB's ReplicatedWriteConflictException carries `$retryable`).
    if (source.includes('static shapeId')) expect(count).toBeGreaterThanOrEqual(classes - 1);
    else expect(count).toBe(0);
    const rewritten = join(dir, `${client.replace('/', '-')}.mjs`);
    writeFileSync(rewritten, compacted.replace(/from "\.\/(\w+)"/g, (_, name: string) => `from "${pathToFileURL(join(dirname(file), `${name}.js`)).href}"`));
    const [original, built] = (await Promise.all([import(pathToFileURL(file).href), import(pathToFileURL(rewritten).href)])) as Record<string, ErrorClass>[];
    const base = (await import(pathToFileURL(join(dirname(file), source.match(/from "\.\/(\w+)"/)![1]! + '.js')).href)) as Record<string, unknown>;
    const Base = Object.values(base).find((value) => typeof value === 'function' && (value as { name: string }).name.endsWith('ServiceException') && (value as { name: string }).name !== 'ServiceException');
    expect(Object.keys(built!)).toEqual(Object.keys(original!));
    const fields = [...new Set([...source.matchAll(/this\.(\w+) = opts\./g)].map((m) => m[1]!))];
    const opts = { message: 'boom', $metadata: { httpStatusCode: 400, requestId: 'req-1', attempts: 2 }, ...Object.fromEntries(fields.map((field, i) => [field, { field, i }])) };
    for (const name of Object.keys(original!)) {
      const seen = observe(built![name]!, Base, opts);
      expect(seen, name).toEqual(observe(original![name]!, Base, opts));
      expect(seen.chain).toEqual([true, true, true]);
    }
    rmSync(rewritten);
  });

  it('leaves a class alone when its text differs from the generated shape, and a module without one untouched', () => {
    const odd = ['export class X extends __BaseException {', '    static shapeId = "a#X";', '    name = "X";', '    $fault = "client";', '    Message;', '    constructor(opts) {', '        super({', '            name: "X",', '            $fault: "client",', '            ...opts,', '        });', '        Object.setPrototypeOf(this, X.prototype);', '        this.Message = opts.Other;', '    }', '}'].join('\n');
    expect(compactErrorClasses(odd)).toEqual({ source: odd, compacted: 0 });
  });
});

describe('which files the plugin rewrites', () => {
  it('only the schema, error and manifest modules of the SDK service clients', () => {
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/client-sesv2/dist-es/schemas/schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('C:\\p\\node_modules\\@aws-sdk\\client-kms\\dist-es\\schemas\\schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/nested-clients/dist-es/submodules/sts/schemas/schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/client-kms/dist-cjs/schemas/schemas_0.js')).toBe(false);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@smithy/core/dist-es/submodules/schema/schemas/NormalizedSchema.js')).toBe(false);
    expect(SDK_ERRORS_FILE.test('/p/node_modules/@aws-sdk/client-kms/dist-es/models/errors.js')).toBe(true);
    expect(SDK_ERRORS_FILE.test('/p/node_modules/@aws-sdk/nested-clients/dist-es/submodules/sts/models/errors.js')).toBe(true);
    expect(SDK_ERRORS_FILE.test('/p/node_modules/@aws-sdk/client-kms/dist-cjs/models/errors.js')).toBe(false);
    expect(SDK_ERRORS_FILE.test('/p/node_modules/@aws-sdk/client-kms/dist-es/models/KMSServiceException.js')).toBe(false);
    expect(SDK_ERRORS_FILE.test('/p/node_modules/jose/dist/webapi/util/errors.js')).toBe(false);
    expect(SDK_CLIENT_MANIFEST.test('/p/node_modules/@aws-sdk/client-sqs/package.json')).toBe(true);
    expect(SDK_CLIENT_MANIFEST.test('/p/node_modules/@aws-sdk/core/package.json')).toBe(false);
    expect(SDK_CLIENT_MANIFEST.test('/p/node_modules/@aws-sdk/client-sqs/node_modules/x/package.json')).toBe(false);
  });
});

describe('oneHtmlPackageBuildPlugin', () => {
  /** A package built twice, as the fb55 packages are: CommonJS for `require`, ESM for `import`. */
  const dualPackage = (root: string, version: string) => {
    mkdirSync(join(root, 'cjs'), { recursive: true });
    mkdirSync(join(root, 'esm'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'entities', version, exports: { '.': { import: './esm/index.js', require: './cjs/index.js' } } }));
    writeFileSync(join(root, 'cjs', 'index.js'), `exports.version = ${JSON.stringify(`${version} cjs`)};`);
    writeFileSync(join(root, 'esm', 'index.js'), `export const version = ${JSON.stringify(`${version} esm`)};`);
  };
  const commonJsUser = (root: string) => {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: root.split('/').pop(), version: '1.0.0', main: 'index.js' }));
    writeFileSync(join(root, 'index.js'), "module.exports = () => require('entities').version;");
  };

  it('gives a require the ESM build and the same version one copy, whichever parent installed it; other versions stay apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'one-html-build-'));
    try {
      const modules = join(dir, 'node_modules');
      dualPackage(join(modules, 'entities'), '4.5.0');
      for (const parent of ['juice', 'htmlparser2']) {
        commonJsUser(join(modules, parent));
        dualPackage(join(modules, parent, 'node_modules', 'entities'), '7.0.1');
      }
      writeFileSync(join(dir, 'entry.mjs'), "import juice from 'juice';\nimport parser from 'htmlparser2';\nimport { version } from 'entities';\nexport const versions = [juice(), parser(), version];\n");
      const out = await build({ entryPoints: [join(dir, 'entry.mjs')], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, plugins: [oneHtmlPackageBuildPlugin], absWorkingDir: dir, logLevel: 'silent' });
      expect(Object.keys(out.metafile.inputs).filter((p) => p.includes('entities')).sort()).toEqual([
        'node_modules/entities/esm/index.js',
        'node_modules/htmlparser2/node_modules/entities/esm/index.js',
      ]);
      const bundled = out.outputFiles[0]!.text;
      expect(bundled).toContain('7.0.1 esm');
      expect(bundled).not.toContain('cjs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
