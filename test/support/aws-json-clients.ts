// The AWS adapters on the JSON protocols with their SDK clients, as one module: the Lambda bundle
// test builds it with the Lambda build and compares it with this unbundled import.
export { SesEmail } from '../../shared/adapters/aws/email';
export { KmsEncryption } from '../../shared/adapters/aws/encryption';
export { SqsQueue } from '../../shared/adapters/aws/queue';
export { EventBridgeScheduler } from '../../shared/adapters/aws/scheduler';
export { EventBridgeBus } from '../../shared/adapters/aws/bus';
export { LambdaRender } from '../../shared/adapters/aws/render';
export { SESv2Client } from '@aws-sdk/client-sesv2';
export { KMSClient } from '@aws-sdk/client-kms';
export { SQSClient } from '@aws-sdk/client-sqs';
export { SchedulerClient } from '@aws-sdk/client-scheduler';
export { EventBridgeClient } from '@aws-sdk/client-eventbridge';
export { LambdaClient } from '@aws-sdk/client-lambda';
