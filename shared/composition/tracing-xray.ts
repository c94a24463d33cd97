import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { Tracing } from '../platform/observability';

/**
 * X-Ray tracing with the Powertools Tracer: the invocation's handler subsegment, a subsegment per
 * AWS SDK call of the instrumented clients, and (the Tracer's default) one per outgoing HTTPS
 * request. Loaded by tracing.ts on a function's first invocation, as a chunk of its own.
 */
const tracer = new Tracer({ serviceName: 'creator-commerce' });

export const xrayTracing: Tracing = {
  middleware: () => captureLambdaHandler(tracer, { captureResponse: false }),
  captureClient: (client) => tracer.captureAWSv3Client(client as never) as typeof client,
};
