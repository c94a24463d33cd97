import type { Config } from '../../platform/config';
import type { QueueName } from '../../platform/ports';

/** What an AWS port is built from: the function's configuration and its queues' addresses. */
export interface AwsPortEnv {
  config: Config;
  queueUrls: Partial<Record<QueueName, string>>;
}

export const required = (value: string | undefined, name: string) => {
  if (!value) throw new Error(`${name} is not configured`);
  return value;
};

/** Builds a value on first use, so a function that never calls a port never configures its client. */
export function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
