import { build } from 'esbuild';
import { ESBUILD_OPTIONS } from '../shared/composition/esbuild-options';
import { contributors } from '../scripts/bundle';
const [entry, n] = process.argv.slice(2);
const out = await build({ ...ESBUILD_OPTIONS, entryPoints: [entry!], outfile: '/tmp/x.mjs', bundle: true, platform: 'node', sourcemap: false, metafile: true, logLevel: 'error' });
console.log(contributors(out.metafile, Number(n ?? 40)).map((c) => `${(c.bytes/1024).toFixed(1)} ${c.module}`).join('\n'));
