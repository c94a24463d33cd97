import type { Config } from '../../platform/config';
import type { QueueName } from '../../platform/ports';

/** What an AWS port is built from: the function's configuration and its queues' addresses. */
export interface AwsPortEnv {
  config: Config;
  queueUrls: Partial<Record<QueueName, string>>;
  /** The job group of each job type: its jobs queue is the configured prefix and the group's name. */
  jobGroupOf?: Record<string, string>;
  /** The function's environment (default process.env): where secrets' ARNs are read. */
  environment?: NodeJS.ProcessEnv;
}

/**
 * The jobs queue (URL or ARN, by the prefix given) a job of this type goes to: the queue of the
 * job group whose capability handles the type.
 */
export function jobsQueueFor(env: AwsPortEnv, prefix: string | undefined, prefixName: string) {
  return (type: string): string => {
    const group = env.jobGroupOf?.[type];
    if (!group) throw new Error(`No jobs queue handles job type ${type}`);
    return `${required(prefix, prefixName)}${group}`;
  };
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
