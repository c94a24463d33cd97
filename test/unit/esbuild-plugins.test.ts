import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientManifest, literalSchemaKeys, oneHtmlPackageBuildPlugin, SDK_CLIENT_MANIFEST, SDK_SCHEMA_FILE } from '../../shared/composition/esbuild-plugins';

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

describe('which files the plugin rewrites', () => {
  it('only the schema modules and manifests of the SDK service clients', () => {
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/client-sesv2/dist-es/schemas/schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('C:\\p\\node_modules\\@aws-sdk\\client-kms\\dist-es\\schemas\\schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/nested-clients/dist-es/submodules/sts/schemas/schemas_0.js')).toBe(true);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@aws-sdk/client-kms/dist-cjs/schemas/schemas_0.js')).toBe(false);
    expect(SDK_SCHEMA_FILE.test('/p/node_modules/@smithy/core/dist-es/submodules/schema/schemas/NormalizedSchema.js')).toBe(false);
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
