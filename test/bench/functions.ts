/**
 * Bundle size and cold import of every deployed function as the default deploy ships it (X-Ray
 * tracing on, so the Powertools Tracer and the X-Ray SDK are in the bundle), with the tracing-off
 * figures (`-c tracing=off`) beside them, and the floor (the DynamoDB client
 * and its document client alone). Part of `npm run bench`; alone: `npx tsx test/bench/functions.ts`
 * (`BENCH_FUNCTIONS=<regex>` for some, `BENCH_COLD_RUNS` runs per bundle, default 5).
 *
 * A cold import is a fresh `node` process importing the built bundle and timing the import alone
 * (process start excluded); the figure is the median of the runs. The floor's cold import is
 * measured in the same run, before and after the functions, to show how the machine's load moved.
 * Sizes are exact; times depend on what else the machine runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleAll, bundleFloor, type BundleResult } from '../../scripts/bundle';

export interface FunctionResult {
  name: string;
  /** Its size goal in KiB (sizeGoalKib). */
  goalKib?: number;
  entry: string;
  kib: number;
  coldImportMs: number;
  /** Cold import over the floor's (SDK defaults) median in the same run. */
  coldRatio?: number;
  top: { module: string; bytes: number }[];
  /** The same function built for `-c tracing=off`. */
  untraced?: { kib: number; coldImportMs: number };
}

export interface FunctionsReport {
  floor: FunctionResult[];
  /** The floor's cold import measured again after every function. */
  floorAfterMs: number;
  functions: FunctionResult[];
}

export const GOAL = { kib: 450, coldImportMs: 70 };

/**
 * Room over the size goal for a function that carries a provider's official SDK, by the provider
 * adapter whose port the function's generated entry wires in (its `ports` module). The `stripe`
 * package is 240 KiB minified and cannot be tree-shaken (every resource hangs off one client), and
 * issue 39 asks for the official SDK: the functions with the Stripe provider get that much more.
 */
export const SDK_ALLOWANCE_KIB: Record<string, number> = { 'processor-stripe': 250 };

/** A function's size goal: the common one plus the allowance of each SDK-carrying provider its entry wires in. */
export function sizeGoalKib(entrySource: string): number {
  return (
    GOAL.kib + Object.entries(SDK_ALLOWANCE_KIB).reduce((sum, [adapter, kib]) => sum + (entrySource.includes(`shared/adapters/${adapter}/ports`) ? kib : 0), 0)
  );
}

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);

function coldImport(outfile: string): number {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify('file://' + resolve(outfile))}); console.log(performance.now() - t);`,
      ],
      // As deployed: the stacks set no NODE_OPTIONS (esbuild-options.ts: --enable-source-maps cost ~50 ms a cold start).
      {
        env: { ...process.env, NODE_OPTIONS: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_REGION: 'us-east-1' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    samples.push(Number(out.trim().split('\n').pop()));
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 10) / 10;
}

const measured = (bundle: BundleResult): FunctionResult => ({
  name: bundle.name,
  entry: bundle.entry,
  kib: Math.round(bundle.bytes / 1024),
  goalKib: existsSync(bundle.entry) ? sizeGoalKib(readFileSync(bundle.entry, 'utf8')) : GOAL.kib,
  coldImportMs: coldImport(bundle.outfile),
  top: bundle.top,
});

/** Bundles every function as deployed and times a cold import of each in a fresh Node process. */
export async function measureFunctions(options: { only?: RegExp } = {}): Promise<FunctionsReport> {
  const floorBundles = await bundleFloor();
  const bundles = await bundleAll({ only: options.only, tracing: true });
  const untraced = new Map((await bundleAll({ only: options.only, tracing: false })).map((b) => [b.name, b]));
  const floor = floorBundles.map(measured);
  const base = floor[0]!.coldImportMs;
  const functions = bundles.map((bundle) => {
    const result = measured(bundle);
    const off = untraced.get(bundle.name);
    return {
      ...result,
      coldRatio: Math.round((result.coldImportMs / base) * 100) / 100,
      ...(off ? { untraced: { kib: Math.round(off.bytes / 1024), coldImportMs: coldImport(off.outfile) } } : {}),
    };
  });
  return { floor, floorAfterMs: coldImport(floorBundles[0]!.outfile), functions };
}

/** Prints the report as a table: each function beside the floor, the goal and the top five. */
export function printFunctions(report: FunctionsReport): void {
  const [floor] = report.floor;
  console.log(
    `Functions (generated entry, esbuild bundle as the default deploy ships it, X-Ray tracing on; the tracing-off build beside it; cold import: fresh Node process, median of ${RUNS}; goal ≤ ${GOAL.kib} KiB, ≤ ${GOAL.coldImportMs} ms on a quiet machine, where the floor took 53 ms)`,
  );
  console.log(`Floor cold import ${floor!.coldImportMs} ms before the functions, ${report.floorAfterMs} ms after (load moves times; sizes are exact)`);
  const row = (f: FunctionResult) => ({
    function: f.name,
    KiB: f.kib,
    'goal KiB': f.name.startsWith('floor') ? '-' : (f.goalKib ?? GOAL.kib),
    'size ok': f.name.startsWith('floor') ? '-' : f.kib <= (f.goalKib ?? GOAL.kib) ? 'yes' : 'NO',
    'cold import ms': f.coldImportMs,
    '×floor': f.coldRatio ?? '-',
    'KiB tracing off': f.untraced?.kib ?? '-',
    'cold ms tracing off': f.untraced?.coldImportMs ?? '-',
    'top five contributors (KiB)': f.top.map((t) => `${t.module} ${Math.round(t.bytes / 1024)}`).join(', '),
  });
  console.table([...report.floor.map(row), ...report.functions.map(row)]);
  const goalOf = (f: FunctionResult) => f.goalKib ?? GOAL.kib;
  const over = report.functions.filter((f) => f.kib > goalOf(f));
  const offOver = report.functions.filter((f) => (f.untraced?.kib ?? 0) > goalOf(f)).length;
  const withSdk = report.functions.filter((f) => goalOf(f) > GOAL.kib).length;
  const goals = `${GOAL.kib} KiB; ${withSdk} with the Stripe SDK: ${GOAL.kib + SDK_ALLOWANCE_KIB['processor-stripe']!} KiB`;
  console.log(`Tracing off (-c tracing=off): ${report.functions.length - offOver} of ${report.functions.length} within their goal (${goals})`);
  console.log(
    `As deployed (tracing on): ${report.functions.length - over.length} of ${report.functions.length} functions within their goal (${goals})${over.length ? `; over: ${over.map((f) => `${f.name} ${f.kib}`).join(', ')}` : ''}`,
  );
  // The goal's 70 ms was set where the floor took 53 ms: read it as a ratio too, since load moves both.
  const ratioGoal = Math.round((GOAL.coldImportMs / 53) * 100) / 100;
  const fast = report.functions.filter((f) => f.coldImportMs <= GOAL.coldImportMs).length;
  const withinRatio = report.functions.filter((f) => (f.coldRatio ?? Infinity) <= ratioGoal).length;
  const sorted = report.functions.map((f) => f.coldImportMs).sort((a, b) => a - b);
  console.log(
    `Cold import: ${fast} of ${report.functions.length} within ${GOAL.coldImportMs} ms, ${withinRatio} within ${ratioGoal}× the floor measured beside them; median ${sorted[Math.floor(sorted.length / 2)]} ms`,
  );
}

if (process.argv[1]?.endsWith('functions.ts')) {
  const only = process.env.BENCH_FUNCTIONS;
  const report = await measureFunctions({ only: only ? new RegExp(only) : undefined });
  printFunctions(report);
}
