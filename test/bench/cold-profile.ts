/**
 * Where a bundle's cold import goes: a fresh Node process imports the bundle under the V8 sampling
 * profiler (started just before the import, stopped just after, so Node's own start is left out),
 * and each sample's function is mapped through the bundle's source map to the package (or source
 * folder) it came from. Self time, summed per package over several runs. `(compile)` is V8 parsing
 * and compiling the bundle's top level (samples outside any function of it), `(gc)` the garbage
 * collector; node:* frames are Node's own code that the bundle called (module loading, async hooks).
 *
 * `npx tsx test/bench/cold-profile.ts api:catalog [runs] [--no-tracing]` builds the function as
 * deployed but with line breaks kept (`minifyWhitespace` off, so the V8 profiler's line ticks tell
 * the modules of the bundle's top level apart; the code is otherwise the deployed code) into
 * dist/profile/ and profiles that; a path to a built `.mjs` (with its `.map`) profiles that file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  /** Ticks per source line (1-based) inside this function: how top-level code is told apart. */
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ImportProfile {
  /** Wall time of the import under the profiler (ms, median of the runs). */
  importMs: number;
  /** Self time per package or source folder, ms per run (mean), largest first. */
  parts: { part: string; ms: number }[];
}

// The child starts the profiler, imports the bundle, stops, and prints the profile.
const CHILD = `
import { Session } from 'node:inspector/promises';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const t = performance.now();
await import(process.argv[1]);
const ms = performance.now() - t;
const { profile } = await session.post('Profiler.stop');
process.stdout.write(JSON.stringify({ ms, profile }));
`;

/** `node_modules/<pkg>` (scoped too) or the first two folders of a source path (the whole path with `byFile`). */
export function partOf(source: string, byFile = false): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  const clean = source.replace(/^(\.\.\/)+/, '');
  if (byFile) return pkg ? clean.slice(clean.indexOf(pkg)) : clean;
  return pkg ?? clean.split('/').slice(0, 2).join('/');
}

export function profileImport(bundle: string, runs = 5, byFile = false): ImportProfile {
  const file = resolve(bundle);
  const url = pathToFileURL(file).href;
  const mapFile = `${file}.map`;
  const map = existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  // The first non-blank column of a line: where its statement's mapping starts.
  const lineStart = (line: number) => Math.max(0, (lines[line] ?? '').search(/\S/));
  const totals = new Map<string, number>();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, url], {
      env: { ...process.env, NODE_OPTIONS: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const { ms, profile } = JSON.parse(out) as { ms: number; profile: Profile };
    times.push(ms);
    const partOfNode = new Map<number, string>();
    for (const node of profile.nodes) {
      const frame = node.callFrame;
      let part: string;
      if (frame.url === url) {
        const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
        part = entry?.originalSource ? partOf(entry.originalSource, byFile) : '(bundle, unmapped)';
      } else if (frame.functionName === '(garbage collector)') part = '(gc)';
      else if (frame.functionName === '(program)' || frame.functionName === '(root)') part = '(compile)';
      else if (frame.functionName === '(idle)') part = '(idle)';
      else if (frame.url.startsWith('node:')) part = `node:${frame.url.slice(5).split('/').slice(0, 2).join('/')}`;
      else part = frame.url ? '(other)' : `(${frame.functionName || 'native'})`;
      partOfNode.set(node.id, part);
    }
    const add = (part: string, ms: number) => totals.set(part, (totals.get(part) ?? 0) + ms);
    const selfMs = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      if (!ms) continue;
      // A bundle function's self time goes to the parts of its lines (its top level mixes every
      // module's top-level statements); without line ticks, to the part of its first line.
      const ticks = node.callFrame.url === url && map ? (node.positionTicks ?? []) : [];
      const all = ticks.reduce((n, t) => n + t.ticks, 0);
      if (!all) {
        add(partOfNode.get(node.id) ?? '(unknown)', ms);
        continue;
      }
      for (const t of ticks) {
        const entry = map!.findEntry(t.line - 1, lineStart(t.line - 1)) as { originalSource?: string };
        add(entry?.originalSource ? partOf(entry.originalSource, byFile) : '(bundle, unmapped)', (ms * t.ticks) / all);
      }
    }
  }
  times.sort((a, b) => a - b);
  return {
    importMs: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
    parts: [...totals]
      .map(([part, ms]) => ({ part, ms: Math.round((ms / runs) * 10) / 10 }))
      .filter((p) => p.part !== '(idle)')
      .sort((a, b) => b.ms - a.ms),
  };
}

/** Builds one function (by its bench name, `api:catalog`) for profiling, answering the bundle's path. */
export async function buildForProfile(name: string, tracing: boolean): Promise<string> {
  const { build } = await import('esbuild');
  const { APP } = await import('../../shared/app');
  const { functionSpecs, writeFunctionEntry } = await import('../../shared/composition/function-entries');
  const { LAMBDA_BUILD_OPTIONS } = await import('../../shared/composition/esbuild-options');
  const spec = functionSpecs(APP).find((s) => (s.appFunction ? `${s.kind}:${s.appFunction}` : s.kind) === name);
  if (!spec) throw new Error(`no function named ${name}`);
  // Code splitting needs an output folder: the function's `index.mjs` and its chunks, as deployed.
  const outdir = resolve('dist', 'profile', `${name.replace(':', '-')}${tracing ? '.traced' : ''}`);
  const entry = writeFunctionEntry(APP, spec, { tracing });
  await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [entry], outdir, minify: false, minifyIdentifiers: true, minifySyntax: true, minifyWhitespace: false });
  return resolve(outdir, 'index.mjs');
}

if (process.argv[1]?.endsWith('cold-profile.ts')) {
  const [target, runs] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!target) throw new Error('usage: npx tsx test/bench/cold-profile.ts <function name | bundle.mjs> [runs] [--no-tracing]');
  const bundle = target.endsWith('.mjs') ? target : await buildForProfile(target, !process.argv.includes('--no-tracing'));
  const profile = profileImport(bundle, Number(runs ?? 5), process.argv.includes('--by-file'));
  console.log(`${bundle}: import ${profile.importMs} ms under the profiler (median); self time per part, ms per run:`);
  for (const p of profile.parts.slice(0, process.argv.includes('--by-file') ? 60 : 25)) console.log(`${String(p.ms).padStart(7)}  ${p.part}`);
}
