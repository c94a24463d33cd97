/**
 * Bundle size and cold import of every deployed function as the default deploy ships it (X-Ray
 * tracing on), each beside the floor bundle (the DynamoDB client and its document client alone)
 * measured right before it, with the ratio; the tracing-off build (`-c tracing=off`) beside it.
 * Part of `npm run bench`; alone: `npx tsx test/bench/functions.ts` (`BENCH_FUNCTIONS=<regex>`
 * for some, `BENCH_COLD_RUNS` rounds, default 5). Exits non-zero when a bundle fails to build or
 * to import; goals are reported, not enforced.
 *
 * A cold import is a fresh `node` process, with the environment Lambda gives a function
 * (AWS_LAMBDA_FUNCTION_NAME, AWS_EXECUTION_ENV, LAMBDA_TASK_ROOT, _HANDLER), importing the
 * function's `index.mjs` and timing the import alone (process start excluded). It records wall
 * time and the CPU time the process spent in the import. Other work on the machine stretches wall
 * time (a process waits for a core) far more than CPU time, so the ratio to the floor is taken on
 * CPU time: on a quiet machine the two are equal (the import is single-threaded work). The floor
 * is measured in every round right before each function (floor, function, floor, function...), so
 * a change in the machine's load weighs on both alike; figures are medians over the rounds.
 *
 * Parts a function loads with `import()` (the X-Ray tracer, AWS port clients, the renderer's parts)
 * are chunks of its package outside the cold import; `+ tracer` is the cold import and the tracer
 * chunk together, what the first invocation of a traced function has run before its handler.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleAll, bundleFloor, bundleStripeAlone, type BundleResult } from '../../scripts/bundle';

/** Size guide (KiB of what a cold start imports) and cold-import goal (× the floor's), issue 43. */
export const GOAL = { kib: 450, coldRatio: 1.3 };
/** Room over the size guide for a function that carries the official Stripe SDK (240 KiB, one class holding every resource). */
export const STRIPE_ALLOWANCE_KIB = 250;
const STRIPE_PORTS = 'shared/adapters/processor-stripe/ports';

export interface ColdFigures {
  /** CPU time of the import, ms (median of the rounds). */
  cpuMs: number;
  /** Wall time of the import, ms (median). */
  wallMs: number;
}

export interface FunctionResult {
  name: string;
  entry: string;
  /** KiB a cold start imports (entry and its static chunks), and the whole package. */
  importKib: number;
  totalKib: number;
  lazyChunks: number;
  /** Its size guide: 450 KiB, plus the Stripe allowance where its entry wires the Stripe provider. */
  goalKib: number;
  withStripe: boolean;
  cold: ColdFigures;
  /** The floor's cold import measured right before this function in each round. */
  floor: ColdFigures;
  /** CPU over the floor's, both medians. */
  ratio: number;
  /** The ratio goal: 1.3, plus the Stripe SDK's own measured cost over the floor for the Stripe functions. */
  ratioGoal: number;
  /** Cold import and the tracer chunk (the first invocation's load before its handler runs). */
  withTracer?: ColdFigures;
  /** The same function built for `-c tracing=off`. */
  untraced?: { importKib: number; cold: ColdFigures };
  top: { module: string; bytes: number }[];
}

export interface FunctionsReport {
  runs: number;
  loadBefore: number[];
  loadAfter: number[];
  floor: { name: string; kib: number; cold: ColdFigures }[];
  /** The official Stripe SDK alone (its import and client class): the allowance of the Stripe functions. */
  stripe: { kib: number; cold: ColdFigures; overFloorRatio: number };
  functions: FunctionResult[];
}

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);

// The child imports the bundle (and optionally more chunks after it) and prints wall and CPU ms.
const CHILD = `
const [entry, ...more] = process.argv.slice(1);
const cpu = process.cpuUsage();
const t = performance.now();
await import(entry);
for (const chunk of more) await import(chunk);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wall: performance.now() - t, cpu: (used.user + used.system) / 1000 }));
`;

interface Sample {
  wall: number;
  cpu: number;
}

function coldOnce(outfile: string, more: string[] = []): Sample {
  const file = resolve(outfile);
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, ...[file, ...more].map((f) => pathToFileURL(f).href)], {
    // As deployed: the stacks set no NODE_OPTIONS (esbuild-options.ts: --enable-source-maps cost ~50 ms a cold start).
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: 'bench-cold-import',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      LAMBDA_TASK_ROOT: dirname(file),
      _HANDLER: 'index.handler',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Sample;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round1 = (n: number) => Math.round(n * 10) / 10;
const figures = (samples: Sample[]): ColdFigures => ({ cpuMs: round1(median(samples.map((s) => s.cpu))), wallMs: round1(median(samples.map((s) => s.wall))) });
const kib = (bytes: number) => Math.round(bytes / 1024);

/** Bundles every function as deployed (and with tracing off), then times cold imports in interleaved rounds. */
export async function measureFunctions(options: { only?: RegExp } = {}): Promise<FunctionsReport> {
  const loadBefore = loadavg().map(round1);
  const [floor, floorWithOptions] = await bundleFloor();
  const stripe = await bundleStripeAlone();
  const traced = await bundleAll({ only: options.only, tracing: true });
  const untraced = new Map((await bundleAll({ only: options.only, tracing: false })).map((b) => [b.name, b]));
  const tracerChunk = (bundle: BundleResult) => bundle.lazyChunks.find((chunk) => /\/tracing-xray-[^/]+\.mjs$/.test(chunk));

  const samples = new Map<string, Sample[]>();
  const take = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
  for (let round = 0; round < RUNS; round++) {
    take('floor', coldOnce(floor!.outfile));
    take('floor-options', coldOnce(floorWithOptions!.outfile));
    take('stripe', coldOnce(stripe.outfile));
    take('stripe-floor', coldOnce(floor!.outfile));
    for (const bundle of traced) {
      take(`${bundle.name}:floor`, coldOnce(floor!.outfile));
      take(bundle.name, coldOnce(bundle.outfile));
      const tracer = tracerChunk(bundle);
      if (tracer) take(`${bundle.name}:tracer`, coldOnce(bundle.outfile, [tracer]));
      const off = untraced.get(bundle.name);
      if (off) take(`${bundle.name}:untraced`, coldOnce(off.outfile));
    }
  }
  const of = (key: string) => figures(samples.get(key)!);
  const stripeCold = of('stripe');
  const stripeFloor = of('stripe-floor');
  // The Stripe SDK's own cost, as a share of the floor: what a Stripe function may add to the 1.3×.
  const stripeOver = Math.round((stripeCold.cpuMs / stripeFloor.cpuMs) * 100) / 100;

  const functions = traced.map((bundle): FunctionResult => {
    const withStripe = existsSync(bundle.entry) && readFileSync(bundle.entry, 'utf8').includes(STRIPE_PORTS);
    const cold = of(bundle.name);
    const floorCold = of(`${bundle.name}:floor`);
    const off = untraced.get(bundle.name);
    return {
      name: bundle.name,
      entry: bundle.entry,
      importKib: kib(bundle.importBytes),
      totalKib: kib(bundle.bytes),
      lazyChunks: bundle.lazyChunks.length,
      goalKib: GOAL.kib + (withStripe ? STRIPE_ALLOWANCE_KIB : 0),
      withStripe,
      cold,
      floor: floorCold,
      ratio: Math.round((cold.cpuMs / floorCold.cpuMs) * 100) / 100,
      ratioGoal: Math.round((GOAL.coldRatio + (withStripe ? stripeOver : 0)) * 100) / 100,
      ...(samples.has(`${bundle.name}:tracer`) ? { withTracer: of(`${bundle.name}:tracer`) } : {}),
      ...(off ? { untraced: { importKib: kib(off.importBytes), cold: of(`${bundle.name}:untraced`) } } : {}),
      top: bundle.top,
    };
  });
  return {
    runs: RUNS,
    loadBefore,
    loadAfter: loadavg().map(round1),
    floor: [
      { name: floor!.name, kib: kib(floor!.bytes), cold: of('floor') },
      { name: floorWithOptions!.name, kib: kib(floorWithOptions!.bytes), cold: of('floor-options') },
    ],
    stripe: { kib: kib(stripe.bytes), cold: stripeCold, overFloorRatio: stripeOver },
    functions,
  };
}

/** Prints the report: each function beside its floor, with the ratio and the goal, then the counts. */
export function printFunctions(report: FunctionsReport): void {
  console.log(
    `Functions as deployed (X-Ray tracing on), each beside the floor bundle measured right before it; cold import: fresh Node process with Lambda's environment, CPU ms of the import (wall ms beside), median of ${report.runs} interleaved rounds; load average ${report.loadBefore.join(' ')} before, ${report.loadAfter.join(' ')} after`,
  );
  for (const f of report.floor) console.log(`${f.name}: ${f.kib} KiB, cold import ${f.cold.cpuMs} ms CPU (${f.cold.wallMs} ms wall)`);
  console.log(
    `Stripe SDK alone (import 'stripe'): ${report.stripe.kib} KiB, ${report.stripe.cold.cpuMs} ms CPU = ${report.stripe.overFloorRatio}× the floor: the Stripe functions' goal is ${GOAL.coldRatio} + ${report.stripe.overFloorRatio}`,
  );
  const row = (f: FunctionResult) => ({
    function: f.name,
    'KiB import': f.importKib,
    'KiB all': f.totalKib,
    'size ok': f.importKib <= f.goalKib ? 'yes' : `NO (${f.goalKib})`,
    'floor ms': f.floor.cpuMs,
    'cold ms': f.cold.cpuMs,
    '×floor': f.ratio,
    goal: f.ratioGoal,
    met: f.ratio <= f.ratioGoal ? 'yes' : 'NO',
    'wall ms (floor)': `${f.cold.wallMs} (${f.floor.wallMs})`,
    '+ tracer ms': f.withTracer?.cpuMs ?? '-',
    'tracing off ms': f.untraced?.cold.cpuMs ?? '-',
    'top five at import (KiB)': f.top.map((t) => `${t.module} ${kib(t.bytes)}`).join(', '),
  });
  console.table(report.functions.map(row));
  const n = report.functions.length;
  const met = report.functions.filter((f) => f.ratio <= f.ratioGoal);
  const sized = report.functions.filter((f) => f.importKib <= f.goalKib);
  const ratios = report.functions.map((f) => f.ratio);
  const tracerRatios = report.functions.filter((f) => f.withTracer).map((f) => f.withTracer!.cpuMs / f.floor.cpuMs);
  console.log(
    `Cold import within its goal (${GOAL.coldRatio}× the floor; Stripe functions ${GOAL.coldRatio} + ${report.stripe.overFloorRatio}): ${met.length} of ${n}; median ${round1(median(report.functions.map((f) => f.cold.cpuMs)))} ms CPU, ${Math.round(median(ratios) * 100) / 100}× the floor (slowest ${Math.max(...ratios)}×)${
      met.length < n
        ? `; over: ${report.functions
            .filter((f) => f.ratio > f.ratioGoal)
            .map((f) => `${f.name} ${f.ratio}×`)
            .join(', ')}`
        : ''
    }`,
  );
  if (tracerRatios.length) console.log(`With the tracer chunk loaded (first invocation): median ${Math.round(median(tracerRatios) * 100) / 100}× the floor`);
  console.log(
    `Size at import within ${GOAL.kib} KiB (Stripe functions ${GOAL.kib + STRIPE_ALLOWANCE_KIB}): ${sized.length} of ${n}${
      sized.length < n
        ? `; over: ${report.functions
            .filter((f) => f.importKib > f.goalKib)
            .map((f) => `${f.name} ${f.importKib}`)
            .join(', ')}`
        : ''
    }`,
  );
}

if (process.argv[1]?.endsWith('functions.ts')) {
  const only = process.env.BENCH_FUNCTIONS;
  const report = await measureFunctions({ only: only ? new RegExp(only) : undefined });
  printFunctions(report);
  if (process.env.BENCH_FUNCTIONS_JSON) (await import('node:fs')).writeFileSync(process.env.BENCH_FUNCTIONS_JSON, JSON.stringify(report, null, 2));
}
