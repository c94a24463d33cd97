import { Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { ALL_ACCESS_NEEDS, type AccessNeed } from '../../shared/platform/capability';

/** The resources a function may be granted, one grant per declared need. */
export interface ServiceResources {
  table: ITableV2;
  bucket: IBucket;
  secretsKey: IKey;
  /** The legacy jobs queue and every capability queue: the `queue` need may send to each. */
  queues: Queue[];
  /** ARNs of the job groups' queues (named, in the jobs stack): the `queue` need may send to each. */
  jobsQueueArns: string[];
  scheduleGroupName: string;
  schedulerRole: Role;
  /** The SES configuration set every mail names (sending through it needs its own grant). */
  emailConfigurationSetName: string;
  /** The render function (the render port in AWS), by ARN: the `render` need may invoke it. */
  renderFunctionArn: string;
}

export function grantNeeds(fn: IFunction, needs: AccessNeed[], resources: ServiceResources): void {
  const stack = Stack.of(fn);
  for (const need of new Set(needs)) {
    switch (need) {
      case 'table':
        resources.table.grantReadWriteData(fn);
        break;
      case 'queue':
        for (const queue of resources.queues) queue.grantSendMessages(fn);
        // By ARN, not by construct: the queues live in the jobs stack, which depends on this one.
        if (resources.jobsQueueArns.length) fn.addToRolePolicy(sendToJobsQueues(resources.jobsQueueArns));
        break;
      case 'blob':
        resources.bucket.grantReadWrite(fn);
        // Uploads are encrypted with the service key; the imported bucket cannot grant it itself.
        resources.secretsKey.grantEncryptDecrypt(fn);
        break;
      case 'encryption':
        resources.secretsKey.grantEncryptDecrypt(fn);
        break;
      case 'scheduler':
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
            resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${resources.scheduleGroupName}/*` })],
          }),
        );
        resources.schedulerRole.grantPassRole(fn.grantPrincipal);
        break;
      case 'email':
        // SES authorises a send against the sender identity and the configuration set it names.
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['ses:SendEmail', 'ses:SendBulkEmail'],
            resources: [
              stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
              stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: resources.emailConfigurationSetName }),
            ],
          }),
        );
        // Sender verification is read from the identity on every settings read and send.
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['ses:GetEmailIdentity'],
            resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
          }),
        );
        break;
      case 'render':
        fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: [resources.renderFunctionArn] }));
        break;
    }
  }
}

/** What `grantSendMessages` allows, on the job groups' queues. */
export const sendToJobsQueues = (arns: string[]) =>
  new PolicyStatement({ effect: Effect.ALLOW, actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], resources: arns });

export const ALL_NEEDS: AccessNeed[] = ALL_ACCESS_NEEDS;
