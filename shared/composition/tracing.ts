import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { useTracing } from '../platform/observability';

/**
 * X-Ray tracing with the Powertools Tracer. Imported (for its effect) only by the entries of
 * functions deployed with tracing on, so the X-Ray SDK ships and runs only there.
 */
const tracer = new Tracer({ serviceName: 'creator-commerce' });
useTracing({
  middleware: () => captureLambdaHandler(tracer, { captureResponse: false }),
  captureClient: (client) => tracer.captureAWSv3Client(client as never) as typeof client,
});
