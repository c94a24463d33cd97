import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Powertools tracer and metrics, created once per container. Both act only inside Lambda: the
 * tracer disables itself elsewhere, and metrics are flushed only by the Lambda middleware.
 */
export const inLambda = () => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

let tracer: Tracer | undefined;
let metrics: Metrics | undefined;

export const getTracer = () => (tracer ??= new Tracer({ serviceName: 'creator-commerce' }));
export const getMetrics = () => (metrics ??= new Metrics({ namespace: 'CreatorCommerce', serviceName: 'creator-commerce' }));

/** Counts answers by class, so alarms can watch 5xx and throttling per function. */
export function recordAnswer(status: number): void {
  if (!inLambda()) return;
  const name = status >= 500 ? 'ServerError' : status === 429 ? 'Throttled' : status >= 400 ? 'ClientError' : 'Success';
  getMetrics().addMetric(name, MetricUnit.Count, 1);
}
