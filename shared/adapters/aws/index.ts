import type { CorePorts } from '../../platform/ports';
import { awsBlobPort } from './blob';
import { awsBusPort } from './bus';
import { awsEmailPort } from './email';
import { awsEncryptionPort } from './encryption';
import type { AwsPortEnv } from './env';
import { awsQueuePort } from './queue';
import { awsRenderPort } from './render';
import { awsSchedulerPort } from './scheduler';
import { awsSecretsPort } from './secrets';

/**
 * Every AWS port at once: for the generic entries (functions/*.ts) and tools that may touch
 * anything. A deployed function is built from its generated entry instead, which imports only the
 * port modules its needs name (shared/composition/function-entries.ts), so its bundle carries only
 * those clients. Each client is still made on the port's first use.
 */
export function awsPorts(env: AwsPortEnv): CorePorts {
  return {
    secrets: awsSecretsPort(env),
    bus: awsBusPort(env),
    queue: awsQueuePort(env),
    scheduler: awsSchedulerPort(env),
    blob: awsBlobPort(env),
    email: awsEmailPort(env),
    encryption: awsEncryptionPort(env),
    render: awsRenderPort(env),
  };
}
