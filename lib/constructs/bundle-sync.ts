import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** What differs between two functions' builds; everything else is LAMBDA_BUILD_OPTIONS. */
export interface BundleRequest {
  entryPoints: string[];
  /** The function's package folder: `index.mjs` and its chunks (LAMBDA_BUILD_OPTIONS). */
  outdir: string;
  absWorkingDir: string;
}

/** Longer than any one function's build; a worker that failed to start never answers. */
const BUILD_TIMEOUT_MS = 120_000;

let worker: Worker | undefined;

function bundler(): Worker {
  if (!worker) {
    // Its own flags, not the synth process's: the worker loads TypeScript through tsx's API.
    worker = new Worker(new URL('./bundle-worker.mjs', import.meta.url), { execArgv: [] });
    worker.unref();
  }
  return worker;
}

/**
 * Builds one function with LAMBDA_BUILD_OPTIONS, synchronously, as CDK's local bundling requires.
 *
 * esbuild's synchronous API cannot run plugins, and the Lambda build has several
 * (shared/composition/esbuild-plugins.ts). So the build runs on a worker thread with the async
 * API while this thread waits on a shared flag: one worker for the whole synth, where a process
 * per function would start Node and tsx 72 times.
 */
export function bundleSync(request: BundleRequest): void {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  try {
    bundler().postMessage({ signal, port: port2, request }, [port2]);
    const waited = Atomics.wait(signal, 0, 0, BUILD_TIMEOUT_MS);
    const reply = receiveMessageOnPort(port1)?.message as { ok: true } | { ok: false; error: string } | undefined;
    if (!reply)
      throw new Error(
        `Bundling ${request.entryPoints.join(', ')} ${waited === 'timed-out' ? `took over ${BUILD_TIMEOUT_MS / 1000} s` : 'got no answer'}: the bundler worker did not finish`,
      );
    if (!reply.ok) throw new Error(`Bundling ${request.entryPoints.join(', ')} failed:\n${reply.error}`);
  } finally {
    port1.close();
  }
}
