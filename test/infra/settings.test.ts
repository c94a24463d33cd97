import { mergedTemplate } from './merged-template';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../lib/app';
import { SANDBOX_NOTIFICATION_SECRET, SANDBOX_SIGNING_SECRET } from '../../shared/adapters/processor-sandbox/signing';
import { APP } from '../../shared/app';
import { allSettings, secretsOf } from '../../shared/composition/function-settings';
import { PLATFORM_SENDER, secretArnVariable, SESSION_SECRET, type Setting } from '../../shared/platform/settings';
import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';

// Bundling is skipped (test/infra/bundles.test.ts runs the bundles); the templates are otherwise
// exactly what `cdk deploy -c senderEmail=...` gets.
const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const env = { account: '123456789012', region: 'eu-west-1' };

type Resource = { Type: string; Properties: Record<string, any> };
interface DeployedFunction {
  stack: string;
  id: string;
  variables: Record<string, unknown>;
  /** Text of every IAM policy statement attached to the function's role. */
  statements: { Action: string | string[]; Resource: unknown }[];
}

let templates: Record<string, Template>;
let functions: DeployedFunction[];

beforeAll(() => {
  const stacks = buildStacks(newApp(), { stage: 'prod', env, settings: TEST_DEPLOY_SETTINGS });
  // The API's functions live in the route stacks and the consumers' in their own (lib/layout.ts).
  templates = {
    api: mergedTemplate(stacks.api, stacks.apiCommerce, stacks.apiGrowth, stacks.apiPlatform),
    workers: mergedTemplate(stacks.workers, stacks.consumers),
    jobs: Template.fromStack(stacks.jobs),
    data: Template.fromStack(stacks.data),
  };
  functions = [];
  for (const [stack, template] of Object.entries(templates)) {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Resource[];
    for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function')) as [string, Resource][]) {
      // CDK's own handlers (the dashboard deployment) are not the service's functions.
      if (fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME !== 'creator-commerce') continue;
      const role = fn.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = policies
        .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      functions.push({ stack, id, variables: fn.Properties.Environment.Variables ?? {}, statements });
    }
  }
});

const secretIds = (template: Template) => Object.keys(template.findResources('AWS::SecretsManager::Secret'));
/** The logical id of the secret made for a setting (one per setting, in the workers stack). */
const secretIdOf = (setting: Setting) => {
  const ids = secretIds(templates.workers!).filter((id) => id.startsWith(`Settings${setting.name[0]!.toUpperCase()}${setting.name.slice(1)}`));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};
const readsSecret = (fn: DeployedFunction, setting: Setting) =>
  fn.statements.some((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(secretIdOf(setting)));
const sendsMail = (fn: DeployedFunction) => fn.statements.some((s) => [s.Action].flat().includes('ses:SendEmail'));
const functionOf = (stack: string, prefix: string, appFunction?: string) => {
  const found = functions.filter(
    (f) => f.stack === stack && f.id.startsWith(prefix) && (appFunction === undefined || f.variables.APP_FUNCTION === appFunction),
  );
  expect(found, `${stack} ${prefix} ${appFunction ?? ''}`).toHaveLength(1);
  return found[0]!;
};
const apiFunction = (group: string) => functionOf('api', `Fn${group.replace(/[^A-Za-z0-9]/g, '')}`, group);

/** The settings a function has, read from its environment and its grants alone. */
function settingsIn(fn: DeployedFunction): string[] {
  return allSettings(APP)
    .filter((setting) =>
      setting.kind === 'secret'
        ? fn.variables[secretArnVariable(setting)] !== undefined && readsSecret(fn, setting)
        : fn.variables[setting.variable] !== undefined,
    )
    .map((s) => s.name);
}

describe('settings of every function (capability manifests -> template)', () => {
  it('makes each secret at deploy time in Secrets Manager, encrypted with the stack key, its value in no template', () => {
    const secrets = Object.values(templates.workers!.findResources('AWS::SecretsManager::Secret')) as Resource[];
    expect(secrets).toHaveLength(secretsOf(allSettings(APP)).length);
    for (const secret of secrets) {
      expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.Properties.KmsKeyId).toBeDefined();
    }
    for (const template of Object.values(templates)) expect(JSON.stringify(template.toJSON())).not.toContain(SANDBOX_NOTIFICATION_SECRET);
  });

  it('gives every function what its capabilities declare, and a secret only to the functions that declare it', () => {
    expect(functions.length).toBeGreaterThan(60);
    const expected = new Map<DeployedFunction, Set<string>>(functions.map((fn) => [fn, new Set()]));
    const add = (fn: DeployedFunction, settings: Setting[] | undefined) => {
      for (const s of settings ?? []) expected.get(fn)!.add(s.name);
    };
    // Declared in the manifests: the API function of each capability (a provider's rides on its
    // capability's), its jobs function, each consumer and queue worker.
    for (const capability of APP.capabilities) {
      if (capability.operations?.length) add(apiFunction(capability.apiFunction ?? capability.name), capability.settings);
      if (Object.keys(capability.jobs ?? {}).length) add(functionOf('jobs', 'JobsWorker', capability.apiFunction ?? capability.name), capability.jobSettings);
      for (const consumer of capability.consumers ?? []) add(functionOf('workers', 'Consumer', consumer.name), consumer.settings);
      for (const consumer of capability.externalConsumers ?? []) add(functionOf('workers', 'Consumer', consumer.name), consumer.settings);
      for (const queue of capability.queues ?? [])
        add(functions.find((f) => f.stack === 'workers' && f.variables.APP_FUNCTION === queue.name && !f.id.startsWith('Consumer'))!, queue.settings);
    }
    // What the kernel in a function reads: a key-authenticated route verifies session tokens, and
    // a function allowed to send mail sends the platform's from the platform sender.
    for (const group of APP.groups) if (group.operations.some((o) => o.auth === 'key')) add(apiFunction(group.name), [SESSION_SECRET]);
    for (const fn of functions) if (sendsMail(fn)) add(fn, [PLATFORM_SENDER]);

    for (const fn of functions) expect(settingsIn(fn).sort(), `${fn.stack}/${fn.id}`).toEqual([...expected.get(fn)!].sort());
  });

  it("names the processor's function and the sandbox jobs as the only readers of the sandbox secret, and the dashboard and team functions as readers of the session secret", () => {
    const sandboxReaders = functions.filter((fn) => readsSecret(fn, SANDBOX_SIGNING_SECRET)).map((fn) => fn.variables.APP_FUNCTION);
    expect(sandboxReaders.sort()).toEqual(['processor', 'processor']);
    expect(settingsIn(apiFunction('processor'))).toContain(SANDBOX_SIGNING_SECRET.name);
    expect(settingsIn(functionOf('jobs', 'JobsWorker', 'processor'))).toContain(SANDBOX_SIGNING_SECRET.name);
    for (const group of ['dashboard', 'team']) expect(settingsIn(apiFunction(group))).toContain(SESSION_SECRET.name);
    // Public-only functions verify no session.
    expect(settingsIn(apiFunction('docs'))).toEqual([]);
  });

  it('gives the platform sender from -c senderEmail to every function that may send mail', () => {
    const senders = functions.filter(sendsMail);
    expect(senders.length).toBeGreaterThan(3);
    for (const fn of senders) expect(fn.variables.EMAIL_FROM, fn.id).toBe(TEST_DEPLOY_SETTINGS.senderEmail);
    for (const fn of functions.filter((f) => !sendsMail(f))) expect(fn.variables.EMAIL_FROM, fn.id).toBeUndefined();
  });

  it('holds no secret in any environment value: secrets travel as ARNs to Secrets Manager', () => {
    const secretVariables = new Set(secretsOf(allSettings(APP)).map((s) => s.variable));
    for (const fn of functions) {
      for (const [name, value] of Object.entries(fn.variables)) {
        expect(secretVariables.has(name), `${fn.id} ${name}`).toBe(false);
        // Only ARNs and encrypted values may name a secret.
        if (/SECRET/.test(name)) expect(name, fn.id).toMatch(/_(ARN|ENCRYPTED)$/);
        if (name.endsWith('_ARN') && /SECRET/.test(name)) expect(JSON.stringify(value)).toMatch(/Settings\w+Secret|ExportsOutputRefSettings/);
        expect(JSON.stringify(value)).not.toContain(SANDBOX_NOTIFICATION_SECRET);
      }
    }
  });
});

describe('required deploy settings', () => {
  it('refuses to synthesize without -c senderEmail, saying what to pass', () => {
    expect(() => buildStacks(newApp(), { stage: 'prod', env, settings: {} })).toThrow(/-c senderEmail=\.\.\. is required/);
    expect(() => buildStacks(newApp(), { stage: 'prod', env, settings: { senderEmail: 'not an address' } })).toThrow(/senderEmail must be an email address/);
  });
});

describe('refused platform mail', () => {
  it('is counted with an alarm, and its retries have a dead-letter queue with an alarm', () => {
    const alarms = Object.values(templates.workers!.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const refused = alarms.filter((a) => a.Properties.MetricName === 'PlatformMailRefused');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.Properties).toMatchObject({ Namespace: 'CreatorCommerce', Threshold: 0, Dimensions: [{ Name: 'service', Value: 'creator-commerce' }] });
    expect(refused[0]!.Properties.AlarmActions).toBeDefined();
    const worker = functions.find((f) => f.stack === 'workers' && f.variables.APP_FUNCTION === 'platform-mail')!;
    expect(worker.variables.EMAIL_FROM).toBe(TEST_DEPLOY_SETTINGS.senderEmail);
    const queues = Object.entries(templates.workers!.findResources('AWS::SQS::Queue')) as [string, Resource][];
    const queue = queues.find(([id]) => id.startsWith('Queueplatformmail') && !id.includes('Dlq'));
    expect(queue?.[1].Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
  });
});
