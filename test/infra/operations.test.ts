import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../lib/app';
import { mergedTemplate } from './merged-template';
import { APP } from '../../shared/app';
import { LAMBDA_BUILD_OPTIONS } from '../../shared/composition/esbuild-options';
import { writeFunctionEntry } from '../../shared/composition/function-entries';

// Monitoring, outputs and offline synthesis (issue 21). Bundling is skipped for the assertions.
const env = { account: '123456789012', region: 'eu-west-1' };
let workers: Template;
let api: Template;
let data: Template;

beforeAll(() => {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
    stage: 'prod',
    settings: TEST_DEPLOY_SETTINGS,
    env,
    alarmEmail: 'ops@example.com',
  });
  workers = mergedTemplate(stacks.workers, stacks.consumers);
  api = mergedTemplate(stacks.api, stacks.apiCommerce, stacks.apiGrowth, stacks.apiPlatform, stacks.monitoring);
  data = Template.fromStack(stacks.data);
});

type Resource = { Type: string; Properties: Record<string, any> };
const entries = (template: Template, type: string) => Object.entries(template.findResources(type)) as [string, Resource][];
const alarms = (template: Template) => entries(template, 'AWS::CloudWatch::Alarm');
const topicId = () => entries(workers, 'AWS::SNS::Topic')[0]![0];

/** Alarms whose single metric (or one metric of its expression) is `metricName` on a resource id. */
const alarmsOn = (template: Template, metricName: string, resourceId?: string) =>
  alarms(template).filter(([, alarm]) => {
    const json = JSON.stringify(alarm.Properties);
    return json.includes(`"${metricName}"`) && (!resourceId || json.includes(resourceId));
  });

describe('alarm topic', () => {
  it('is one encrypted, TLS-only SNS topic with the alarmEmail context value subscribed', () => {
    workers.resourceCountIs('AWS::SNS::Topic', 1);
    workers.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    workers.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    workers.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    // CloudWatch may use the topic's key, and nobody else is added.
    workers.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] })]),
      },
    });
  });

  it('has no subscription without alarmEmail', () => {
    const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), { stage: 'dev', settings: TEST_DEPLOY_SETTINGS, env });
    Template.fromStack(stacks.workers).resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('is the action (alarm and OK) of every alarm in both stacks', () => {
    const topic = topicId();
    for (const [id, alarm] of alarms(workers)) {
      // In the workers stack by reference; in the consumers stack imported from it.
      if (JSON.stringify(alarm.Properties.AlarmActions).includes('ImportValue')) {
        expect(JSON.stringify(alarm.Properties.AlarmActions), id).toContain('AlarmTopic');
        expect(alarm.Properties.OKActions, id).toEqual(alarm.Properties.AlarmActions);
        continue;
      }
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topic }]);
    }
    for (const [id, alarm] of alarms(api)) {
      expect(JSON.stringify(alarm.Properties.AlarmActions), id).toContain('AlarmTopic');
    }
  });
});

describe('alarms', () => {
  it('watch every dead-letter queue: capability queues, jobs, the stream failure queue and each consumer rule DLQ', () => {
    const queues = entries(workers, 'AWS::SQS::Queue');
    const dlqIds = queues.filter(([id]) => /Dlq|StreamDispatchFailures/.test(id)).map(([id]) => id);
    // one per capability queue, the jobs queue, the stream and each bus consumer
    expect(dlqIds).toHaveLength(APP.queues.length + 1 + 1 + APP.consumers.length + APP.externalConsumers.length);
    for (const id of dlqIds) {
      const watching = alarmsOn(workers, 'ApproximateNumberOfMessagesVisible', id);
      expect(watching, id).toHaveLength(1);
      expect(watching[0]![1].Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
    for (const consumer of [...APP.consumers, ...APP.externalConsumers]) {
      expect(
        dlqIds.some((id) => id.startsWith(`Consumer${consumer.name.replace(/[^A-Za-z0-9]/g, '')}Dlq`)),
        consumer.name,
      ).toBe(true);
    }
  });

  it('watch errors and throttles of every function, API and workers', () => {
    for (const template of [api, workers]) {
      // CDK's own custom-resource handlers run at deploy time only (bucket clean-up, dashboard upload):
      // a deployment reports their failures itself.
      const functions = entries(template, 'AWS::Lambda::Function').filter(
        ([id]) => !id.startsWith('CustomS3AutoDelete') && !id.startsWith('CustomCDKBucketDeployment'),
      );
      expect(functions.length).toBeGreaterThan(3);
      for (const [id] of functions) {
        for (const metric of ['Errors', 'Throttles']) {
          const found = alarms(template).filter(
            ([, a]) =>
              a.Properties.MetricName === metric && a.Properties.Namespace === 'AWS/Lambda' && JSON.stringify(a.Properties.Dimensions).includes(`"${id}"`),
          );
          expect(found, `${metric} of ${id}`).toHaveLength(1);
        }
      }
    }
  });

  it('watch the API 5xx rate as a share of requests', () => {
    const [rate] = alarmsOn(api, '5xx');
    expect(rate).toBeDefined();
    expect(JSON.stringify(rate![1].Properties.Metrics)).toContain('100 * errors / requests');
    expect(JSON.stringify(rate![1].Properties.Metrics)).toContain('"Count"');
    expect(rate![1].Properties.Threshold).toBe(2);
  });

  it('watch table throttles, stream iterator age, the oldest message of the webhook and jobs queues, and overdue timers', () => {
    expect(alarmsOn(workers, 'ReadThrottleEvents')).toHaveLength(1);
    expect(alarmsOn(workers, 'WriteThrottleEvents')).toHaveLength(1);
    const iterator = alarmsOn(workers, 'IteratorAge', 'StreamDispatcher');
    expect(iterator).toHaveLength(1);
    expect(iterator[0]![1].Properties.Threshold).toBe(60_000);
    expect(alarmsOn(workers, 'ApproximateAgeOfOldestMessage', 'WebhookDeliveries')).toHaveLength(1);
    expect(alarmsOn(workers, 'ApproximateAgeOfOldestMessage', 'JobsQueue')).toHaveLength(1);
    const timers = alarmsOn(workers, 'InvocationDroppedCount');
    expect(timers).toHaveLength(1);
    expect(JSON.stringify(timers[0]![1].Properties.Metrics)).toContain('TargetErrorCount');
  });
});

describe('dashboard', () => {
  it('graphs the API, every function, queues and dead letters, the table and the webhook success rate', () => {
    const [[, dashboard]] = entries(api, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const title of [
      'API requests and errors',
      'API latency',
      'Webhook delivery success rate',
      'Workers: invocations',
      'Queues: messages waiting',
      'Dead letters',
      'Table: consumed capacity',
      'Table: throttled requests',
      'stream iterator age',
    ]) {
      expect(body, title).toContain(title);
    }
    for (const group of APP.groups) expect(body, group.name).toContain(`errors ${group.name}`);
    for (const consumer of [...APP.consumers, ...APP.externalConsumers]) expect(body, consumer.name).toContain(`consumer:${consumer.name}`);
    expect(body).toContain('WebhookAttemptSucceeded');
  });

  it("counts webhook attempts by outcome from the delivery worker's log lines", () => {
    workers.resourceCountIs('AWS::Logs::MetricFilter', 2);
    workers.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: Match.stringLikeRegexp('webhook attempt.*success'),
      MetricTransformations: [Match.objectLike({ MetricName: 'WebhookAttemptSucceeded' })],
    });
    workers.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: Match.stringLikeRegexp('webhook attempt.*failed'),
      MetricTransformations: [Match.objectLike({ MetricName: 'WebhookAttemptFailed' })],
    });
  });
});

describe('outputs', () => {
  it('give what the deploy and runbook steps need: table name, region, alarm topic, dead-letter queues, API address', () => {
    data.hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^Table') } });
    data.hasOutput('Region', { Value: 'eu-west-1' });
    workers.hasOutput('AlarmTopicArn', {});
    workers.hasOutput('EventBusName', {});
    const dlqs = JSON.stringify(workers.findOutputs('DeadLetterQueues'));
    for (const name of ['webhooks', 'jobs', 'stream', ...[...APP.consumers, ...APP.externalConsumers].map((c) => `consumer:${c.name}`)])
      expect(dlqs, name).toContain(`\\"${name}\\"`);
    api.hasOutput('ApiUrl', {});
  });
});

describe('offline synth', () => {
  const out = mkdtempSync(join(tmpdir(), 'cdk-offline-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  // The real CLI, as the README runs it. Every stack is synthesized and checked by cdk-nag; the
  // functions of one stack (the platform routes) are bundled, as `cdk synth <stack>` does: bundling
  // all ~90 assets took 50 s of an idle run (minutes on a shared machine), and each function's
  // bundle is already built and checked by test/unit/lambda-bundles.test.ts.
  it('`cdk synth` succeeds with no credentials and no AWS environment, cdk-nag clean', { timeout: 900_000 }, async () => {
    const home = join(out, 'home');
    // A clean environment: no AWS_* variables, no profile or config file, no CDK_DEFAULT_*.
    const cleanEnv = { PATH: process.env.PATH!, HOME: home, AWS_CONFIG_FILE: join(home, 'none'), AWS_SHARED_CREDENTIALS_FILE: join(home, 'none'), CI: '1' };
    const cdk = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'cdk');
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        cdk,
        [
          'synth',
          'CreatorCommerce-prod-ApiPlatform',
          '--exclusively',
          '--quiet',
          '--no-notices',
          '-c',
          `senderEmail=${TEST_DEPLOY_SETTINGS.senderEmail}`,
          '-o',
          join(out, 'cdk.out'),
        ],
        {
          cwd: join(import.meta.dirname, '..', '..'),
          env: cleanEnv,
        },
      );
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('close', (code) => resolve({ code, output }));
    });
    expect(result.output).not.toMatch(/AwsSolutions-/);
    expect(result.code, result.output.slice(-3000)).toBe(0);
    const templates = readdirSync(join(out, 'cdk.out')).filter((f) => f.endsWith('.template.json'));
    expect(templates.sort()).toEqual(
      ['Api', 'ApiCommerce', 'ApiGrowth', 'ApiPlatform', 'Consumers', 'Data', 'Jobs', 'Monitoring', 'Workers'].map(
        (name) => `CreatorCommerce-prod-${name}.template.json`,
      ),
    );
    // Offline means the account and region stay tokens, never a guess.
    const workersTemplate = readFileSync(join(out, 'cdk.out', 'CreatorCommerce-prod-Workers.template.json'), 'utf8');
    expect(workersTemplate).toContain('AWS::AccountId');

    // What ships is what `npm run build` and the bench measure: the same esbuild call, byte for
    // byte, with its source map beside it; the docs function also carries the explorer's files.
    // The API's functions are in its route stacks (lib/layout.ts).
    const apiTemplate = {
      Resources: Object.assign(
        {},
        ...['ApiCommerce', 'ApiGrowth', 'ApiPlatform'].map(
          (name) => (JSON.parse(readFileSync(join(out, 'cdk.out', `CreatorCommerce-prod-${name}.template.json`), 'utf8')) as { Resources: object }).Resources,
        ),
      ) as Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>,
    };
    const assetOf = (group: string) => {
      const [, fn] = Object.entries(apiTemplate.Resources).find(([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith(`Fn${group}`))!;
      return join(out, 'cdk.out', `asset.${fn.Properties.Code!.S3Key!.replace(/\.zip$/, '')}`);
    };
    const analytics = assetOf('analytics');
    expect(readdirSync(analytics).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    const entry = writeFunctionEntry(APP, { kind: 'api', appFunction: 'analytics' }, { tracing: true });
    const rebuilt = join(out, 'rebuilt', 'index.mjs');
    await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [entry], outfile: rebuilt });
    expect(readFileSync(join(analytics, 'index.mjs')).equals(readFileSync(rebuilt))).toBe(true);
    expect(readdirSync(join(assetOf('docs'), 'docs-assets')).sort()).toEqual(['swagger-ui-bundle.js', 'swagger-ui.css']);
  });
});
