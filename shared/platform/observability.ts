import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';

/**
 * Powertools metrics, created once per container, and X-Ray tracing when the function was built
 * with it. Both act only inside Lambda: metrics are flushed only by the Lambda middleware.
 *
 * The tracer is not imported here: the Powertools Tracer loads the X-Ray SDK, whose async hooks
 * cost CPU on every promise even with tracing off. A function deployed with tracing on imports
 * shared/composition/tracing.ts from its entry, which installs it through `useTracing`.
 */
export const inLambda = () => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

export interface Tracing {
  /** The handler middleware that opens and closes the invocation's segment. */
  middleware(): MiddlewareObj;
  /** Instruments an AWS SDK v3 client so each call is a subsegment. */
  captureClient<T>(client: T): T;
}

let tracing: Tracing | undefined;
export const useTracing = (installed: Tracing) => {
  tracing = installed;
};
/** The installed tracing, inside Lambda only. */
export const activeTracing = (): Tracing | undefined => (inLambda() ? tracing : undefined);

let metrics: Metrics | undefined;
export const getMetrics = () => (metrics ??= new Metrics({ namespace: 'CreatorCommerce', serviceName: 'creator-commerce' }));

/** Counts answers by class, so alarms can watch 5xx and throttling per function. */
export function recordAnswer(status: number): void {
  if (!inLambda()) return;
  const name = status >= 500 ? 'ServerError' : status === 429 ? 'Throttled' : status >= 400 ? 'ClientError' : 'Success';
  getMetrics().addMetric(name, MetricUnit.Count, 1);
}

/**
 * A platform mail (sign-in, invite, account notice) the provider refused: one count per refusal,
 * published at once (a worker has no middleware to flush it); the stack alarms on any.
 */
export function countPlatformMailRefused(): void {
  if (!inLambda()) return;
  // No `kind` dimension: the alarm watches one metric; the log line says which mail it was.
  const single = getMetrics().singleMetric();
  single.addMetric('PlatformMailRefused', MetricUnit.Count, 1);
}
