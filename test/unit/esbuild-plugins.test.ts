import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oneHtmlPackageBuildPlugin } from '../../shared/composition/esbuild-plugins';

describe('oneHtmlPackageBuildPlugin', () => {
  /** A package built twice, as the fb55 packages are: CommonJS for `require`, ESM for `import`. */
  const dualPackage = (root: string, version: string) => {
    mkdirSync(join(root, 'cjs'), { recursive: true });
    mkdirSync(join(root, 'esm'), { recursive: true });
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'entities', version, exports: { '.': { import: './esm/index.js', require: './cjs/index.js' } } }),
    );
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
      writeFileSync(
        join(dir, 'entry.mjs'),
        "import juice from 'juice';\nimport parser from 'htmlparser2';\nimport { version } from 'entities';\nexport const versions = [juice(), parser(), version];\n",
      );
      const out = await build({
        entryPoints: [join(dir, 'entry.mjs')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        write: false,
        metafile: true,
        plugins: [oneHtmlPackageBuildPlugin],
        absWorkingDir: dir,
        logLevel: 'silent',
      });
      expect(
        Object.keys(out.metafile.inputs)
          .filter((p) => p.includes('entities'))
          .sort(),
      ).toEqual(['node_modules/entities/esm/index.js', 'node_modules/htmlparser2/node_modules/entities/esm/index.js']);
      const bundled = out.outputFiles[0]!.text;
      expect(bundled).toContain('7.0.1 esm');
      expect(bundled).not.toContain('cjs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
