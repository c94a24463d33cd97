import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { bundleAll } from '../../scripts/bundle';

export interface FunctionResult {
  name: string;
  entry: string;
  kib: number;
  coldImportMs: number;
  top: { module: string; bytes: number }[];
}

/** Bundles every function as deployed and times a cold import of each in a fresh Node process. */
export async function measureFunctions(): Promise<FunctionResult[]> {
  const bundles = await bundleAll();
  return bundles.map((bundle) => {
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const out = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify('file://' + resolve(bundle.outfile))}); console.log(performance.now() - t);`],
        { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_REGION: 'us-east-1' }, encoding: 'utf8' },
      );
      samples.push(Number(out.trim()));
    }
    samples.sort((a, b) => a - b);
    return { name: bundle.name, entry: bundle.entry, kib: Math.round(bundle.bytes / 1024), coldImportMs: Math.round(samples[1]! * 10) / 10, top: bundle.top };
  });
}
