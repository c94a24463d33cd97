import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';
import { App as CdkApp } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import * as z from '../../shared/platform/zod';
import { buildStacks } from '../../lib/app';
import { mergedTemplate } from './merged-template';
import { CAPABILITIES } from '../../shared/app';
import { assembleApp } from '../../shared/composition/assemble';
import { nextOccurrence, scheduleExpression } from '../../shared/composition/schedules';
import { defineCapability } from '../../shared/platform/capability';
import { defineOperation } from '../../shared/platform/operation';
import { cycles, importGraph, layerOf, layerViolations } from '../../scripts/import-graph';
import logicalIds from './fixtures/logical-ids.json';

/** A small capability that declares one of everything a manifest can hold. */
const example = defineCapability({
  name: 'example',
  needs: ['table', 'email'],
  operations: [
    defineOperation({
      operationId: 'getExampleGreeting',
      tool: 'get_example_greeting',
      summary: 'A greeting',
      method: 'GET',
      path: '/examples/{id}',
      auth: 'key',
      params: z.object({ id: z.string() }),
      output: z.object({ greeting: z.string() }),
      handler: async (_ctx, { params }) => ({ greeting: `hello ${params.id}` }),
    }),
  ],
  consumers: [{ name: 'example-on-sale', eventTypes: ['order.completed'], handle: async () => undefined }],
  jobs: { 'example.tick': async () => undefined },
  queues: [{ name: 'example-work', handle: async () => undefined, needs: ['table'], timeoutSeconds: 20 }],
  schedules: [{ name: 'example-nightly', every: { dailyAtUtc: { hour: 3, minute: 0 } }, job: { type: 'example.tick', payload: {} } }],
  controlRoutes: [{ method: 'POST', path: '/_local/example/poke', handle: async () => ({ status: 200, body: { poked: true } }) }],
  ports: { example: { aws: () => ({ kind: 'aws' }), local: () => ({ kind: 'local' }) } },
});

/** Loops and cross-capability repository reads allowed: none are left, and none may come back. */
const KNOWN_LOOPS: string[][] = [];
const KNOWN_REPOSITORY_READS = new Set<string>();

describe('import graph', () => {
  const graph = importGraph();

  it('reads the project (shared, functions, lib, bin)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('shared/app.ts')).toContain('shared/catalog/index.ts');
  });

  it('has no import loops (beyond the known ones)', () => {
    const known = new Set(KNOWN_LOOPS.map((loop) => loop.join(' ')));
    expect(cycles(graph).filter((loop) => !known.has(loop.join(' ')))).toEqual([]);
  });

  it('never imports upward: the kernel imports no capability, adapter or local runtime', () => {
    const kernelFiles = [...graph.keys()].filter((file) => layerOf(file) === 0);
    expect(kernelFiles.length).toBeGreaterThan(20);
    expect(layerViolations(graph).filter((v) => layerOf(v.from) === 0)).toEqual([]);
    expect(layerViolations(graph).filter((v) => v.why.startsWith('layer'))).toEqual([]);
  });

  it("no capability reads another capability's repository", () => {
    expect(layerViolations(graph).filter((v) => v.why.includes('repository') && !KNOWN_REPOSITORY_READS.has(`${v.from} -> ${v.to}`))).toEqual([]);
  });

  it('finds a loop and an upward import when there is one', () => {
    const bad = new Map([
      ['shared/platform/a.ts', ['shared/catalog/b.ts']],
      ['shared/catalog/b.ts', ['shared/platform/a.ts']],
    ]);
    expect(cycles(bad)).toEqual([['shared/catalog/b.ts', 'shared/platform/a.ts']]);
    expect(layerViolations(bad).map((v) => v.from)).toEqual(['shared/platform/a.ts']);
  });
});

describe('a capability added to the list', () => {
  const app = assembleApp([...CAPABILITIES, example]);

  it('gets its API group and routes, its OpenAPI paths and its MCP tools', async () => {
    expect(app.groups.find((g) => g.name === 'example')).toMatchObject({ needs: ['table', 'email'] });
    expect(app.allOperations.some(({ group, operation }) => group === 'example' && operation.path === '/examples/{id}')).toBe(true);
    expect(app.apiOperations.map((o) => o.tool)).toContain('get_example_greeting');
    // The MCP function sends tool calls to the API: it reads keys and touches nothing else.
    expect(app.groups.find((g) => g.name === 'mcp')!.needs).toEqual(['table']);
    const docs = app.groups.find((g) => g.name === 'docs')!.operations.find((o) => o.path === '/docs.json')!;
    const answer = (await docs.handler({ request: { baseUrl: 'https://api.example.com' } } as never, {
      params: {},
      query: {},
      body: undefined,
      files: {},
    })) as { body: string };
    expect(Object.keys(JSON.parse(answer.body).paths)).toContain('/examples/{id}');
  });

  it('gets its consumers, queues, jobs, schedules, ports and control routes', () => {
    expect(app.consumers.map((c) => c.name)).toContain('example-on-sale');
    expect(app.queues.map((q) => q.name)).toContain('example-work');
    expect(app.jobs['example.tick']).toBeTypeOf('function');
    // Its jobs form a job group of their own (its API group's name), with the schedule firing them.
    expect(app.jobGroupOf['example.tick']).toBe('example');
    const group = app.jobGroups.find((g) => g.name === 'example')!;
    expect(Object.keys(group.jobs)).toEqual(['example.tick']);
    expect(group.schedules.map((s) => s.name)).toEqual(['example-nightly']);
    expect(app.schedules.map((s) => s.name)).toEqual([...CAPABILITIES.flatMap((c) => (c.schedules ?? []).map((s) => s.name)), 'example-nightly']);
    expect(Object.keys(app.ports)).toEqual([...CAPABILITIES.flatMap((c) => Object.keys(c.ports ?? {})), 'example', 'privacy']);
    expect(app.controlRoutes.map((r) => r.path)).toContain('/_local/example/poke');
  });

  it('gets its CDK resources: function and routes, bus rule, queue with worker, schedule', () => {
    const stacks = buildStacks(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [] } }), {
      stage: 'prod',
      settings: TEST_DEPLOY_SETTINGS,
      env: { account: '123456789012', region: 'eu-west-1' },
      capabilities: app,
    });
    // A capability lib/layout.ts does not name lands in the open API stack; its consumer in the consumers stack.
    const api = Template.fromStack(stacks.apiPlatform).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    const workers = mergedTemplate(stacks.workers, stacks.consumers).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    const fn = Object.entries(api).find(([id, r]) => id.startsWith('Fnexample') && r.Type === 'AWS::Lambda::Function')!;
    expect(fn[1].Properties.Environment.Variables.APP_FUNCTION).toBe('example');
    expect(Object.values(api).some((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === 'GET /examples/{id}')).toBe(true);
    expect(
      Object.values(workers).some(
        (r) =>
          r.Type === 'AWS::Events::Rule' &&
          JSON.stringify(r.Properties.EventPattern).includes('order.completed') &&
          JSON.stringify(r.Properties.Targets).includes('creator-commerce-prod-example-on-sale'),
      ),
    ).toBe(true);
    expect(Object.keys(workers).some((id) => id.startsWith('QueueWorkerexamplework') && workers[id]!.Type === 'AWS::Lambda::Function')).toBe(true);
    // One worker per declared queue (the example's included), plus the old jobs queue's router and the stream.
    expect(Object.values(workers).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')).toHaveLength(app.queues.length + 2);
    // Its jobs get a queue and a function of their own in the jobs stack, and its schedule fires there.
    const jobs = Template.fromStack(stacks.jobs).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    expect(Object.values(jobs).some((r) => r.Type === 'AWS::SQS::Queue' && r.Properties.QueueName === 'creator-commerce-prod-jobs-example')).toBe(true);
    const worker = Object.entries(jobs).find(([id, r]) => id.startsWith('JobsWorkerexample') && r.Type === 'AWS::Lambda::Function')!;
    expect(worker[1].Properties.Environment.Variables.APP_FUNCTION).toBe('example');
    expect(Object.values(jobs).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')).toHaveLength(app.jobGroups.length);
    const schedule = Object.values(jobs).find((r) => r.Type === 'AWS::Scheduler::Schedule' && JSON.stringify(r.Properties.Target).includes('example.tick'))!;
    expect(schedule.Properties.ScheduleExpression).toBe('cron(0 3 * * ? *)');
    expect(JSON.stringify(schedule.Properties.Target.Arn)).toContain('JobsQueueexample');
    expect(JSON.parse(schedule.Properties.Target.Input)).toEqual({ type: 'example.tick', payload: {}, recurring: 'example-nightly' });
    // Every function learns the new queue's address.
    expect(JSON.stringify(workers)).toContain('QUEUE_URL_EXAMPLE_WORK');
  });

  it("serves a provider adapter's operations from the API function it names (apiFunction)", () => {
    const provider = defineCapability({
      name: 'example-provider',
      apiFunction: 'example',
      needs: ['table', 'blob'],
      operations: [
        defineOperation({
          operationId: 'getExamplePage',
          summary: 'A provider page',
          method: 'GET',
          path: '/examples/{id}/page',
          auth: 'public',
          params: z.object({ id: z.string() }),
          handler: async () => ({ page: true }),
        }),
      ],
    });
    const joined = assembleApp([...CAPABILITIES, example, provider]);
    const group = joined.groups.find((g) => g.name === 'example')!;
    expect(group.operations.map((o) => o.operationId)).toEqual(['getExampleGreeting', 'getExamplePage']);
    expect(group.needs).toEqual(['table', 'email', 'blob']);
    expect(joined.groups.some((g) => g.name === 'example-provider')).toBe(false);
    // The shipped sandbox processor's hosted page and the Stripe webhook ride on the processor's function.
    expect(
      assembleApp(CAPABILITIES)
        .groups.find((g) => g.name === 'processor')!
        .operations.map((o) => o.operationId),
    ).toEqual([
      'getSandboxCheckoutPage',
      'paySandboxCheckout',
      'getSandboxThankYouPage',
      'getSandboxCardUpdatePage',
      'submitSandboxCardUpdate',
      'receiveProcessorNotification',
      'receiveStripeEvent',
    ]);
  });

  it('refuses a second capability that claims a route, tool, consumer, job type or queue already taken', () => {
    expect(() => assembleApp([...CAPABILITIES, example, { ...example, name: 'copy' }])).toThrow(/route GET \/examples\/\{id\}/);
    expect(() => assembleApp([...CAPABILITIES, example, { name: 'q', queues: [{ name: 'jobs', handle: async () => undefined }] }])).toThrow(/queue jobs/);
    expect(() =>
      assembleApp([...CAPABILITIES, { name: 's', schedules: [{ name: 'x', every: { minutes: 5 }, job: { type: 'nobody', payload: {} } }] }]),
    ).toThrow(/no capability handles/);
  });
});

describe('the shipped app', () => {
  it("keeps every stack under CloudFormation's 500-resource limit", () => {
    const stacks = buildStacks(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [] } }), {
      stage: 'prod',
      settings: TEST_DEPLOY_SETTINGS,
      env: { account: '123456789012', region: 'eu-west-1' },
    });
    for (const [name, stack] of Object.entries(stacks)) expect(Object.keys(Template.fromStack(stack).toJSON().Resources).length, name).toBeLessThan(500);
  });

  it('synthesises the same CDK resources as before the manifests (logical ids and types)', () => {
    const stacks = buildStacks(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [] } }), {
      stage: 'prod',
      settings: TEST_DEPLOY_SETTINGS,
      env: { account: '123456789012', region: 'eu-west-1' },
    });
    for (const [name, stack] of Object.entries(stacks)) {
      const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string }>;
      const types = Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, r.Type]));
      expect(types, name).toEqual((logicalIds as Record<string, Record<string, string>>)[name]);
    }
  });
});

describe('recurring schedules', () => {
  it('find the next occurrence strictly after a time, in UTC', () => {
    const daily = { dailyAtUtc: { hour: 3, minute: 0 } };
    expect(nextOccurrence(daily, new Date('2026-01-01T02:59:59Z')).toISOString()).toBe('2026-01-01T03:00:00.000Z');
    expect(nextOccurrence(daily, new Date('2026-01-01T03:00:00Z')).toISOString()).toBe('2026-01-02T03:00:00.000Z');
    expect(nextOccurrence({ minutes: 2 }, new Date('2026-01-01T00:01:30Z')).toISOString()).toBe('2026-01-01T00:02:00.000Z');
    expect(nextOccurrence({ minutes: 2 }, new Date('2026-01-01T00:02:00Z')).toISOString()).toBe('2026-01-01T00:04:00.000Z');
    expect(scheduleExpression({ minutes: 1 })).toBe('rate(1 minute)');
    expect(scheduleExpression({ minutes: 2 })).toBe('rate(2 minutes)');
  });
});
