import { describe, expect, it } from 'vitest';
import { clientManifest, literalSchemaKeys, SDK_CLIENT_MANIFEST, SDK_SCHEMA_FILE } from '../../shared/composition/esbuild-plugins';

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
