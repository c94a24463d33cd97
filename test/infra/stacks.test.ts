import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../lib/app';
import { API_ROUTE_STACKS, apiRouteStackOf, consumerFunctionName, OPEN_API_STACK, STACK_RESOURCE_BUDGET } from '../../lib/layout';
import { mergedTemplate } from './merged-template';
import { APP } from '../../shared/app';

const allOperations = () => APP.allOperations;
const BUS_CONSUMERS = APP.consumers;
import { TABLE } from '../../shared/store/table';

// Bundling is skipped here (it is exercised by `npm run synth` and the bench); the templates are
// otherwise exactly what `cdk deploy` gets.
const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const env = { account: '123456789012', region: 'eu-west-1' };

let data: Template;
let workers: Template;
let api: Template;
let jobs: Template;
const counts: Record<string, number> = {};

beforeAll(() => {
  const stacks = buildStacks(newApp(), { stage: 'prod', settings: TEST_DEPLOY_SETTINGS, env });
  data = Template.fromStack(stacks.data);
  workers = mergedTemplate(stacks.workers, stacks.consumers);
  api = mergedTemplate(stacks.api, stacks.apiCommerce, stacks.apiGrowth, stacks.apiPlatform);
  for (const [name, stack] of Object.entries(stacks)) counts[name] = Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length;
  jobs = Template.fromStack(stacks.jobs);
});

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (template: Template, type: string) => Object.values(template.findResources(type)) as Resource[];

describe('data stack', () => {
  it('has the single table of the shared definition, with stream, TTL, PITR and deletion protection', () => {
    data.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: TABLE.indexes.map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
        }),
      ),
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true })],
    });
  });

  it('keeps uploads private and encrypted with the rotating service key', () => {
    data.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() } })],
      },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
  });
});

describe('functions', () => {
  it('start without NODE_OPTIONS: no --enable-source-maps, which parses the source map on every cold start', () => {
    const functions = [workers, api, jobs]
      .flatMap((template) => resources(template, 'AWS::Lambda::Function'))
      .filter((f) => f.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'creator-commerce');
    expect(functions.length).toBeGreaterThan(60);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Handler: 'index.handler' });
      expect(fn.Properties.Environment?.Variables?.NODE_OPTIONS).toBeUndefined();
    }
  });
});

describe('room in every stack', () => {
  it(`keeps every stack at most ${STACK_RESOURCE_BUDGET} resources, 200 under CloudFormation's 500`, () => {
    expect(Object.keys(counts)).toEqual(['data', 'workers', 'consumers', 'jobs', 'api', 'apiCommerce', 'apiGrowth', 'apiPlatform', 'monitoring']);
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeLessThanOrEqual(STACK_RESOURCE_BUDGET);
  });

  it('puts each API group in the stack lib/layout.ts pins it to, and a group it does not name in the open one', () => {
    const pinned = Object.values(API_ROUTE_STACKS).flat() as string[];
    expect(APP.groups.map((g) => g.name).filter((name) => !pinned.includes(name))).toEqual([]);
    expect(new Set(pinned).size).toBe(pinned.length);
    expect(apiRouteStackOf('a-capability-added-later')).toBe(OPEN_API_STACK);
  });
});

describe('api stack', () => {
  it('has exactly one route per registered operation, one OPTIONS route per path declared for other origins, and nothing else', () => {
    const routeKeys = resources(api, 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey as string)
      .sort();
    const corsPaths = [
      ...new Set(
        allOperations()
          .filter(({ operation }) => operation.cors)
          .map(({ operation }) => operation.path),
      ),
    ];
    expect(corsPaths).toEqual(expect.arrayContaining(['/forms/public/{id}', '/forms/public/{id}/subscribe', '/reviews/submit/{token}', '/survey/{token}']));
    const expected = [...allOperations().map(({ operation }) => `${operation.method} ${operation.path}`), ...corsPaths.map((path) => `OPTIONS ${path}`)].sort();
    expect(routeKeys).toEqual(expected);
  });

  it('declares CORS per route, never API-wide, and never on a key-authenticated path', () => {
    const httpApi = resources(api, 'AWS::ApiGatewayV2::Api')[0]!;
    expect(httpApi.Properties.CorsConfiguration).toBeUndefined();
    const keyPaths = new Set(
      allOperations()
        .filter(({ operation }) => operation.auth === 'key')
        .map(({ operation }) => operation.path),
    );
    const preflights = resources(api, 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey as string)
      .filter((k) => k.startsWith('OPTIONS '));
    expect(preflights.length).toBeGreaterThan(3);
    for (const key of preflights) expect(keyPaths.has(key.slice('OPTIONS '.length)), key).toBe(false);
  });

  it('sends each route to its own group function', () => {
    const integrations = api.findResources('AWS::ApiGatewayV2::Integration');
    const functions = api.findResources('AWS::Lambda::Function');
    for (const route of resources(api, 'AWS::ApiGatewayV2::Route')) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const uri = integrations[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      const entry = allOperations().find(
        ({ operation }) =>
          `${operation.method} ${operation.path}` === route.Properties.RouteKey ||
          (operation.cors && `OPTIONS ${operation.path}` === route.Properties.RouteKey),
      )!;
      expect(uri).toMatch(new RegExp(`^Fn${entry.group}`));
      expect(functions[uri]).toBeDefined();
    }
  });

  it('puts no API Gateway authorizer on any route: keys are checked in the functions, public routes stay public', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    for (const route of resources(api, 'AWS::ApiGatewayV2::Route')) {
      expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('runs every function on Node.js 22, ARM64, with tracing and JSON logs', () => {
    for (const template of [api, workers]) {
      // CDK's own deployment handler (the dashboard's BucketDeployment, a Python function CDK
      // provides, logical id `CustomCDKBucketDeployment...`) is not one of the service's functions.
      const own = Object.entries(template.findResources('AWS::Lambda::Function'))
        .filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))
        .map(([, fn]) => fn as Resource);
      expect(own.length).toBeGreaterThan(5);
      for (const fn of own) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogFormat: 'JSON' },
        });
      }
    }
  });

  it('logs access to the API stage', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });
});

describe('least privilege', () => {
  const policyActions = (template: Template, functionPrefix: string): string[] => {
    const actions: string[] = [];
    for (const [id, policy] of Object.entries(template.findResources('AWS::IAM::Policy'))) {
      if (!id.startsWith(functionPrefix)) continue;
      for (const statement of policy.Properties.PolicyDocument.Statement) actions.push(...[statement.Action].flat());
    }
    return actions;
  };

  it('grants no action wildcard (*) anywhere', () => {
    for (const template of [api, workers]) {
      for (const policy of resources(template, 'AWS::IAM::Policy')) {
        for (const statement of policy.Properties.PolicyDocument.Statement) expect([statement.Action].flat()).not.toContain('*');
      }
    }
  });

  it('gives the docs function no data access, and the account function only the table', () => {
    const docs = policyActions(api, 'Fndocs');
    expect(docs.some((a) => a.startsWith('dynamodb:') || a.startsWith('s3:') || a.startsWith('kms:'))).toBe(false);
    const account = policyActions(api, 'Fnaccount');
    expect(account.some((a) => a.startsWith('dynamodb:'))).toBe(true);
    expect(account.some((a) => a.startsWith('s3:') || a.startsWith('kms:') || a.startsWith('ses:') || a.startsWith('sqs:'))).toBe(false);
  });

  const sesStatements = (template: Template, functionPrefix: string) =>
    Object.entries(template.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith(functionPrefix))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));

  it('grants sending (single and bulk) and reading identities where the email need is declared, and nowhere else', () => {
    const identity = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-1:123456789012:identity/*']] };
    const configurationSet = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-1:123456789012:configuration-set/creator-commerce-prod']] };
    const withEmail = [
      [api, 'Fnemail'],
      [workers, 'QueueWorkeremailsends'],
      // The email group's timers send scheduled posts: read from its code.
      [jobs, 'JobsWorkeremail'],
    ] as const;
    for (const [template, prefix] of withEmail) {
      const statements = sesStatements(template, prefix);
      expect(statements, prefix).toEqual([
        expect.objectContaining({ Action: ['ses:SendEmail', 'ses:SendBulkEmail'], Effect: 'Allow', Resource: [identity, configurationSet] }),
        expect.objectContaining({ Action: 'ses:GetEmailIdentity', Effect: 'Allow', Resource: identity }),
      ]);
    }
    // MCP tool calls go to the API as requests: the MCP function sends no mail itself.
    for (const prefix of ['Fnaccount', 'Fncatalog', 'Fndocs', 'Fnmcp']) expect(sesStatements(api, prefix), prefix).toEqual([]);
    // The old jobs queue's router forwards jobs and runs none; the imports sweep reaches no mail.
    for (const prefix of ['Consumeremailsesfeedback', 'StreamDispatcher', 'JobsWorker']) expect(sesStatements(workers, prefix), prefix).toEqual([]);
    expect(sesStatements(jobs, 'JobsWorkerimports')).toEqual([]);
    // An automation step queues its mail for the email worker, and an invite's expiry mails no
    // one: their timers' functions, which run their handlers' own modules, reach no SESv2.
    for (const prefix of ['JobsWorkerautomations', 'JobsWorkerteam']) expect(sesStatements(jobs, prefix), prefix).toEqual([]);
  });

  it('lets only the dispatcher put events on the bus', () => {
    const putters = resources(workers, 'AWS::IAM::Policy').filter((p) =>
      p.Properties.PolicyDocument.Statement.some((s: { Action: string | string[] }) => [s.Action].flat().includes('events:PutEvents')),
    );
    expect(putters).toHaveLength(1);
    expect(JSON.stringify(putters[0]!.Properties.Roles)).toMatch(/StreamDispatcher/);
  });
});

describe('workers stack', () => {
  it('feeds only outbox inserts (and inserts of items carrying their event) from the stream to the dispatcher, with failure handling', () => {
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: [{ Pattern: Match.stringLikeRegexp('INSERT.*OutboxEvent') }, { Pattern: Match.stringLikeRegexp('INSERT.*carriesEvent') }] },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  it('gives every queue a dead-letter queue, encryption and TLS-only access, and alarms on dead letters', () => {
    const queues = resources(workers, 'AWS::SQS::Queue');
    const withDlq = queues.filter((q) => q.Properties.RedrivePolicy);
    expect(withDlq.length).toBeGreaterThanOrEqual(2);
    for (const queue of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(resources(workers, 'AWS::SQS::QueuePolicy').length).toBe(queues.length);
    expect(resources(workers, 'AWS::CloudWatch::Alarm').length).toBeGreaterThanOrEqual(2);
  });

  it('has a rule per bus consumer, matching its event types', () => {
    const rules = resources(workers, 'AWS::Events::Rule');
    expect(rules).toHaveLength(BUS_CONSUMERS.length + APP.externalConsumers.length);
    for (const consumer of BUS_CONSUMERS) {
      // The rule targets the consumers stack's function by its name (lib/layout.ts).
      const rule = rules.find((r) => JSON.stringify(r.Properties.Targets).includes(`:${consumerFunctionName('prod', consumer.name)}"`));
      expect(rule, consumer.name).toBeDefined();
      if (consumer.eventTypes !== '*') expect(rule!.Properties.EventPattern['detail-type']).toEqual(consumer.eventTypes);
    }
  });

  it('sends SES bounces and complaints from the default bus to the feedback consumer, and only there', () => {
    const rules = Object.entries(workers.findResources('AWS::Events::Rule')) as [string, Resource][];
    const onDefault = rules.filter(([, r]) => r.Properties.EventBusName === 'default');
    expect(onDefault).toHaveLength(1);
    const [id, rule] = onDefault[0]!;
    expect(id).toMatch(/^Ruleemailsesfeedback/);
    expect(rule.Properties.EventPattern).toEqual({ source: ['aws.ses'], 'detail-type': ['Email Bounced', 'Email Complaint Received'] });
    const targets = rule.Properties.Targets as { Arn: unknown; RetryPolicy: unknown; DeadLetterConfig: { Arn: { 'Fn::GetAtt': string[] } } }[];
    expect(targets).toHaveLength(1);
    expect(JSON.stringify(targets[0]!.Arn)).toContain(`:${consumerFunctionName('prod', 'email-ses-feedback')}"`);
    expect(targets[0]!.DeadLetterConfig.Arn['Fn::GetAtt'][0]).toMatch(/^ConsumeremailsesfeedbackDlq/);
    // Every other rule stays on the app's bus and its source.
    for (const [, other] of rules.filter(([, r]) => r.Properties.EventBusName !== 'default')) {
      expect(other.Properties.EventBusName).toEqual({ Ref: expect.stringMatching(/^Bus/) });
      expect(other.Properties.EventPattern.source).not.toContain('aws.ses');
    }
    // The external consumer's function runs the external entry (the SES detail, not a domain event).
    const fn = Object.entries(workers.findResources('AWS::Lambda::Function')).find(([fnId]) =>
      /^Consumeremailsesfeedback[0-9A-F]{8}$/.test(fnId),
    )![1] as Resource;
    expect(fn.Properties.Environment.Variables.APP_FUNCTION).toBe('email-ses-feedback');
  });

  it('creates the SES configuration set with an EventBridge destination on the default bus, and names it to every function', () => {
    workers.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    workers.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'creator-commerce-prod' });
    workers.resourceCountIs('AWS::SES::ConfigurationSetEventDestination', 1);
    const [destination] = resources(workers, 'AWS::SES::ConfigurationSetEventDestination');
    expect(destination!.Properties.ConfigurationSetName).toEqual({ Ref: expect.stringMatching(/^EmailConfigurationSet/) });
    expect(destination!.Properties.EventDestination.Enabled).toBe(true);
    expect([...destination!.Properties.EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint', 'delivery']);
    expect(JSON.stringify(destination!.Properties.EventDestination.EventBridgeDestination.EventBusArn)).toContain(':event-bus/default');
    for (const template of [api, workers]) {
      // CDK's own deployment handler (the dashboard's BucketDeployment, a Python function CDK
      // provides, logical id `CustomCDKBucketDeployment...`) is not one of the service's functions.
      const own = Object.entries(template.findResources('AWS::Lambda::Function'))
        .filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))
        .map(([, fn]) => fn as Resource);
      expect(own.length).toBeGreaterThan(5);
      for (const fn of own) {
        if (!fn.Properties.Environment?.Variables?.TABLE_NAME) continue;
        expect(fn.Properties.Environment.Variables.EMAIL_CONFIGURATION_SET).toBe('creator-commerce-prod');
      }
    }
  });

  it('has a schedule group and a scheduler role that can only send to the jobs queues', () => {
    workers.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    workers.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] },
    });
    const [policy] = Object.entries(workers.findResources('AWS::IAM::Policy')).filter(([id]) => id.startsWith('SchedulerRole'));
    const statements = policy![1].Properties.PolicyDocument.Statement as { Action: string[]; Resource: unknown }[];
    expect(statements.flatMap((s) => s.Action).filter((a) => !a.startsWith('sqs:'))).toEqual([]);
    // The old jobs queue (one-time schedules made before the job groups name it) and each group's named queue.
    const targets = JSON.stringify(statements.map((s) => s.Resource));
    expect(targets).toMatch(/JobsQueue[0-9A-F]{8}/);
    for (const group of APP.jobGroups) expect(targets).toContain(`:sqs:eu-west-1:123456789012:creator-commerce-prod-jobs-${group.name}`);
  });
});

describe('jobs stack', () => {
  it('has one named jobs queue with a dead-letter queue and alarms, and one function, per job group', () => {
    const groups = APP.jobGroups.map((g) => g.name);
    expect(groups.length).toBeGreaterThan(5);
    const queues = resources(jobs, 'AWS::SQS::Queue');
    expect(
      queues
        .filter((q) => q.Properties.QueueName)
        .map((q) => q.Properties.QueueName)
        .sort(),
    ).toEqual(groups.map((g) => `creator-commerce-prod-jobs-${g}`).sort());
    expect(queues).toHaveLength(groups.length * 2);
    const functions = resources(jobs, 'AWS::Lambda::Function');
    expect(functions.map((fn) => fn.Properties.Environment.Variables.APP_FUNCTION).sort()).toEqual([...groups].sort());
    const mappings = resources(jobs, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(groups.length);
    for (const mapping of mappings) expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const alarms = Object.keys(jobs.findResources('AWS::CloudWatch::Alarm'));
    for (const group of groups) {
      for (const id of [
        `JobsQueue${group.replace(/\W/g, '')}DlqAlarm`,
        `JobsQueue${group.replace(/\W/g, '')}AgeAlarm`,
        `JobsWorker${group.replace(/\W/g, '')}ErrorsAlarm`,
        `JobsWorker${group.replace(/\W/g, '')}ThrottlesAlarm`,
      ]) {
        expect(
          alarms.some((a) => a.startsWith(id)),
          id,
        ).toBe(true);
      }
    }
  });

  it('fires each recurring schedule into the queue of the group handling its job type', () => {
    const schedules = resources(jobs, 'AWS::Scheduler::Schedule');
    expect(schedules).toHaveLength(APP.schedules.length);
    for (const schedule of APP.schedules) {
      const found = schedules.find((s) => JSON.parse(s.Properties.Target.Input).recurring === schedule.name)!;
      expect(JSON.stringify(found.Properties.Target.Arn)).toContain(`JobsQueue${APP.jobGroupOf[schedule.job.type]}`);
      expect(found.Properties.GroupName).toBe('creator-commerce-prod');
    }
    workers.resourceCountIs('AWS::Scheduler::Schedule', 0);
  });

  it('tells every function where the jobs queues are, by prefix', () => {
    for (const template of [api, workers, jobs]) {
      for (const fn of resources(template, 'AWS::Lambda::Function').filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME)) {
        const variables = fn.Properties.Environment.Variables;
        expect(JSON.stringify(variables.JOBS_QUEUE_ARN_PREFIX)).toContain(':sqs:eu-west-1:123456789012:creator-commerce-prod-jobs-');
        expect(JSON.stringify(variables.JOBS_QUEUE_URL_PREFIX)).toContain('https://sqs.eu-west-1.');
        expect(variables.JOBS_QUEUE_URL).toBeUndefined();
      }
    }
  });
});

describe('Google client for spreadsheet sync', () => {
  it('passes the client id from context and the secret only encrypted, to every function (none without context)', () => {
    const stacks = buildStacks(newApp(), {
      stage: 'prod',
      settings: TEST_DEPLOY_SETTINGS,
      env,
      google: { clientId: 'client-1.apps.googleusercontent.com', clientSecretEncrypted: 'AQICAHh-ciphertext' },
    });
    const functions = [stacks.api, stacks.workers, stacks.jobs].flatMap((stack) => resources(Template.fromStack(stack), 'AWS::Lambda::Function'));
    const service = functions.filter((fn) => fn.Properties.Environment?.Variables?.TABLE_NAME);
    expect(service.length).toBeGreaterThan(10);
    for (const fn of service) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        GOOGLE_CLIENT_ID: 'client-1.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET_ENCRYPTED: 'AQICAHh-ciphertext',
      });
      expect(fn.Properties.Environment.Variables.GOOGLE_CLIENT_SECRET).toBeUndefined();
    }
    for (const template of [api, workers, jobs]) {
      for (const fn of resources(template, 'AWS::Lambda::Function'))
        expect(Object.keys(fn.Properties.Environment?.Variables ?? {}).filter((k) => k.startsWith('GOOGLE_'))).toEqual([]);
    }
  });
});

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in the AwsSolutions pack', () => {
    const app = newApp();
    buildStacks(app, { stage: 'prod', settings: TEST_DEPLOY_SETTINGS, env });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    let report = '';
    try {
      app.synth();
    } catch (error) {
      report = (error as Error).message;
    }
    expect(report).toBe('');
  });
});
