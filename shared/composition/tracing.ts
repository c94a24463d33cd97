import type { MiddlewareObj } from '@middy/core';
import { useTracing, type Tracing } from '../platform/observability';

/**
 * X-Ray tracing for a function deployed with tracing on: imported (for its effect) by such a
 * function's entry, which also wraps its handler in `traced`.
 *
 * The Powertools Tracer and the X-Ray SDK under it (cls-hooked, semver, the SDK's patchers: about
 * 120 KiB) are not on the cold import: measured, they took 12-13 ms of CPU there, the whole room
 * a function has over the bare DynamoDB client. They are a chunk of their own (tracing-xray.ts),
 * imported when the first invocation arrives and before it runs, so every invocation is traced as
 * before: its handler subsegment, each AWS SDK call of the instrumented clients (which are built
 * on that first invocation, after the tracer: lambda.ts builds dependencies lazily) and each
 * outgoing HTTPS request. The first invocation pays the load instead of the import.
 */
let xray: Tracing | undefined;
let loading: Promise<Tracing> | undefined;

const load = () =>
  (loading ??= import('./tracing-xray').then((module) => {
    xray = module.xrayTracing;
    return xray;
  }));

function loaded(): Tracing {
  if (!xray) throw new Error('X-Ray tracing was used before the traced handler loaded it (wrap the handler in `traced`)');
  return xray;
}

useTracing({
  // The handler middleware is made when the function's handler is built, at import: it delegates
  // to the tracer's own middleware, which exists by the time an invocation runs it.
  middleware: (): MiddlewareObj => {
    let inner: MiddlewareObj | undefined;
    const own = () => (inner ??= loaded().middleware());
    return {
      before: (request) => own().before?.(request),
      after: (request) => own().after?.(request),
      onError: (request) => own().onError?.(request),
    };
  },
  captureClient: (client) => loaded().captureClient(client),
});

/** The function's handler, run once the tracer is loaded. */
export function traced<Args extends unknown[], R>(handler: (...args: Args) => Promise<R>): (...args: Args) => Promise<R> {
  return async (...args: Args) => {
    if (!xray) await load();
    return handler(...args);
  };
}
