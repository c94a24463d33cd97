// The bundler behind bundleSync (bundle-sync.ts): esbuild's async API, which runs plugins, on a
// worker thread. Plain JavaScript so that it starts under any runner; the build options come from
// the TypeScript module every other build uses, loaded through tsx.
import { parentPort } from 'node:worker_threads';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

const optionsModule = tsImport('../../shared/composition/esbuild-options.ts', import.meta.url);

parentPort.on('message', async ({ signal, port, request }) => {
  let reply;
  try {
    const { LAMBDA_BUILD_OPTIONS } = await optionsModule;
    await build({ ...LAMBDA_BUILD_OPTIONS, ...request });
    reply = { ok: true };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(reply);
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
