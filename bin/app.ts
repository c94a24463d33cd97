/**
 * The CDK app: the only place that reads the stage and AWS environment for infrastructure.
 *   npx cdk deploy --all -c stage=prod -c senderEmail=no-reply@yourdomain.com
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks } from '../lib/app';
import { APP } from '../shared/app';
import { allSettings, valuesOf } from '../shared/composition/function-settings';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? process.env.STAGE ?? 'prod';
// Alarm mail: npx cdk deploy --all -c alarmEmail=ops@example.com (confirm the subscription mail).
const alarmEmail = app.node.tryGetContext('alarmEmail') as string | undefined;
// Spreadsheet sync: -c googleClientId=<id> -c googleClientSecretEncrypted=<KMS ciphertext> (docs/deploy.md).
const google = {
  clientId: app.node.tryGetContext('googleClientId') as string | undefined,
  clientSecretEncrypted: app.node.tryGetContext('googleClientSecretEncrypted') as string | undefined,
};
// The deploy settings the app's value settings take (`-c senderEmail=...`); synth refuses a missing one.
const settings = Object.fromEntries(
  valuesOf(allSettings(APP)).map((setting) => [setting.context, app.node.tryGetContext(setting.context) as string | undefined]),
);
buildStacks(app, { stage, alarmEmail, google, settings, env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION } });
Tags.of(app).add('app', 'creator-commerce');
Tags.of(app).add('stage', stage);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
