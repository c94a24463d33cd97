/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (an esbuild alias in
 * esbuild-options.ts). The SDK's HTTP protocol loads it lazily, only for an operation whose input
 * or output is an event stream; none of the operations the functions call has one (DynamoDB, SQS,
 * SES, KMS, EventBridge, Scheduler, Lambda Invoke), yet esbuild inlines the lazy import: ~15 KiB of every
 * function. Should an operation with an event stream ever be called from a function, it fails
 * loudly here instead of quietly working without its codec.
 */
const unavailable = (): never => {
  throw new Error('Event streams are not bundled in the Lambda functions (shared/composition/lambda-no-event-streams.ts)');
};

export class EventStreamSerde {
  constructor() {
    unavailable();
  }
}

export const eventStreamSerdeProvider = unavailable;

/**
 * Clients with an event-stream operation (Lambda's InvokeWithResponseStream) resolve their codec at
 * construction: here they get none, and such an operation fails in EventStreamSerde above.
 */
export const resolveEventStreamSerdeConfig = <T>(config: T): T => config;
