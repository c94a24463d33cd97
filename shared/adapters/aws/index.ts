import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../platform/config';
import type { CorePorts, QueueName } from '../../platform/ports';
import { EventBridgeBus } from './bus';
import { S3Blob } from './blob';
import { SesEmail } from './email';
import { KmsEncryption } from './encryption';
import { SqsQueue } from './queue';
import { EventBridgeScheduler } from './scheduler';

const required = (value: string | undefined, name: string) => {
  if (!value) throw new Error(`${name} is not configured`);
  return value;
};

/**
 * The AWS implementations of every port. Clients are built on first use of each port, so a
 * function that never sends mail never loads or configures SES.
 */
export function awsPorts(config: Config, queueUrls: Partial<Record<QueueName, string>>): CorePorts {
  const region = config.AWS_REGION;
  let bus: EventBridgeBus | undefined;
  let queue: SqsQueue | undefined;
  let scheduler: EventBridgeScheduler | undefined;
  let blob: S3Blob | undefined;
  let email: SesEmail | undefined;
  let encryption: KmsEncryption | undefined;
  const core: CorePorts = {
    bus: { publish: (events) => (bus ??= new EventBridgeBus(new EventBridgeClient({ region }), config.EVENT_BUS_NAME)).publish(events) },
    queue: {
      send: (name, message, options) =>
        (queue ??= new SqsQueue(new SQSClient({ region }), queueUrls)).send(name, message, options),
    },
    scheduler: {
      schedule: (name, at, job) => lazyScheduler().schedule(name, at, job),
      cancel: (name) => lazyScheduler().cancel(name),
    },
    blob: {
      put: (key, body, type) => lazyBlob().put(key, body, type),
      get: (key) => lazyBlob().get(key),
      delete: (key) => lazyBlob().delete(key),
    },
    email: {
      send: (message) => lazyEmail().send(message),
      sendBulk: (message) => lazyEmail().sendBulk(message),
      senderIdentity: (address) => lazyEmail().senderIdentity(address),
    },
    encryption: {
      encrypt: (text, context) => lazyEncryption().encrypt(text, context),
      decrypt: (text, context) => lazyEncryption().decrypt(text, context),
    },
  };

  function lazyScheduler() {
    return (scheduler ??= new EventBridgeScheduler(new SchedulerClient({ region }), {
      group: config.SCHEDULER_GROUP,
      roleArn: required(config.SCHEDULER_ROLE_ARN, 'SCHEDULER_ROLE_ARN'),
      jobsQueueArn: required(config.JOBS_QUEUE_ARN, 'JOBS_QUEUE_ARN'),
    }));
  }
  function lazyEmail() {
    return (email ??= new SesEmail(new SESv2Client({ region }), config.EMAIL_FROM, config.EMAIL_CONFIGURATION_SET));
  }
  function lazyBlob() {
    return (blob ??= new S3Blob(new S3Client({ region }), required(config.BLOB_BUCKET, 'BLOB_BUCKET')));
  }
  function lazyEncryption() {
    return (encryption ??= new KmsEncryption(new KMSClient({ region }), required(config.KMS_KEY_ID, 'KMS_KEY_ID')));
  }
  return core;
}
