/**
 * The AWS ports as a deployed function's entry wires them: each port's adapter module, and so
 * its AWS SDK client (SESv2, Lambda, KMS, SQS, S3…, 15-120 KiB each with their schemas and error
 * classes), is imported on the port's first call, from a chunk of its own (esbuild code
 * splitting). A cold start then parses and runs none of them; most requests of a function call
 * few or none of its ports (api:email's ~40 operations, one of which renders), and one that does
 * pays its client's load once per container. The adapters themselves are unchanged (index.ts
 * wires them directly for the generic entries and tools). One module per port: esbuild makes a
 * chunk of every `import()` in the modules it bundles, so each entry imports only its ports'.
 *
 * Every port method answers a promise, so deferring the module changes no caller.
 */
export function deferred<P extends object>(methods: readonly (keyof P & string)[], load: () => Promise<P>): P {
  let port: Promise<P> | undefined;
  const call =
    (method: keyof P & string) =>
    async (...args: unknown[]) => {
      port ??= load().catch((error: unknown) => {
        port = undefined; // a failed import is retried by the next call, not cached
        throw error;
      });
      const adapter = await port;
      return (adapter[method] as (...a: unknown[]) => unknown)(...args);
    };
  return Object.fromEntries(methods.map((method) => [method, call(method)])) as P;
}
