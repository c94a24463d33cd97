/**
 * The CDK app: the only place that reads the stage and AWS environment for infrastructure.
 *   npx cdk deploy --all -c stage=prod
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks } from '../lib/app';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? process.env.STAGE ?? 'prod';
// Alarm mail: npx cdk deploy --all -c alarmEmail=ops@example.com (confirm the subscription mail).
const alarmEmail = app.node.tryGetContext('alarmEmail') as string | undefined;
// Spreadsheet sync: -c googleClientId=<id> -c googleClientSecretEncrypted=<KMS ciphertext> (README, deploy).
const google = { clientId: app.node.tryGetContext('googleClientId') as string | undefined, clientSecretEncrypted: app.node.tryGetContext('googleClientSecretEncrypted') as string | undefined };
buildStacks(app, { stage, alarmEmail, google, env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION } });
Tags.of(app).add('app', 'creator-commerce');
Tags.of(app).add('stage', stage);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
