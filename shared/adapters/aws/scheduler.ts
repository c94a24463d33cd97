import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  UpdateScheduleCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { Job, SchedulerPort } from '../../platform/ports';
import { jobsQueueFor, lazily, required, type AwsPortEnv } from './env';

/** Schedule names allow [0-9a-zA-Z-_.] up to 64 characters; longer names are hashed down. */
export function scheduleName(name: string): string {
  const clean = name.replace(/[^0-9a-zA-Z_.-]/g, '-');
  if (clean.length <= 64) return clean;
  let hash = 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return `${clean.slice(0, 55)}-${(hash >>> 0).toString(16)}`;
}

const atExpression = (at: Date) => `at(${at.toISOString().slice(0, 19)})`;

/**
 * EventBridge Scheduler one-time schedules that put the job on the jobs queue of the capability
 * handling its type, and delete themselves.
 */
export class EventBridgeScheduler implements SchedulerPort {
  constructor(
    private readonly client: Pick<SchedulerClient, 'send'>,
    private readonly options: { group: string; roleArn: string; jobsQueueArn: (type: string) => string },
  ) {}

  async schedule(name: string, at: Date, job: Job): Promise<void> {
    const input = {
      Name: scheduleName(name),
      GroupName: this.options.group,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' as const },
      ActionAfterCompletion: 'DELETE' as const,
      Target: { Arn: this.options.jobsQueueArn(job.type), RoleArn: this.options.roleArn, Input: JSON.stringify(job) },
    };
    try {
      await this.client.send(new CreateScheduleCommand(input));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      await this.client.send(new UpdateScheduleCommand(input));
    }
  }

  async cancel(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: scheduleName(name), GroupName: this.options.group }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}

/** The scheduler port of a function whose needs include `scheduler`. */
export function awsSchedulerPort(env: AwsPortEnv): SchedulerPort {
  const { config } = env;
  const scheduler = lazily(
    () =>
      new EventBridgeScheduler(new SchedulerClient({ region: config.AWS_REGION }), {
        group: config.SCHEDULER_GROUP,
        roleArn: required(config.SCHEDULER_ROLE_ARN, 'SCHEDULER_ROLE_ARN'),
        jobsQueueArn: jobsQueueFor(env, config.JOBS_QUEUE_ARN_PREFIX, 'JOBS_QUEUE_ARN_PREFIX'),
      }),
  );
  return { schedule: (name, at, job) => scheduler().schedule(name, at, job), cancel: (name) => scheduler().cancel(name) };
}
