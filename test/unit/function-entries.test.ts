import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP, CAPABILITIES } from '../../shared/app';
import { ALL_ACCESS_NEEDS } from '../../shared/platform/capability';
import {
  entrySource,
  functionSpecs,
  jobGroupNeeds,
  jobsModuleOf,
  manifestModuleOf,
  operationsModuleOf,
  portsModuleOf,
  PROJECT_ROOT,
  workerModuleOf,
} from '../../shared/composition/function-entries';
import { portsNamedFrom } from '../support/code-reach';
import { unpackJson } from '../../shared/composition/packed-json';

const source = (kind: Parameters<typeof entrySource>[1]['kind'], appFunction?: string, tracing = false) =>
  entrySource(APP, { kind, appFunction }, { tracing })!;
/**
 * The project modules an entry imports. An AWS port is wired through its deferred factory
 * (shared/adapters/aws/deferred/<port>.ts: the adapter is imported on the port's first call), which
 * stands here for the adapter module it loads, `shared/adapters/aws/<port>`.
 */
const importsOf = (text: string) =>
  [...text.matchAll(/'\.\.\/\.\.\/([^']+)'/g)].map((m) => m[1]!.replace(/^shared\/adapters\/aws\/deferred\//, 'shared/adapters/aws/'));

describe('generated function entries', () => {
  it('locate every manifest of shared/app.ts by its own declaration, the very object the list holds', async () => {
    for (const capability of CAPABILITIES) {
      expect(capability.build, capability.name).toBeDefined();
      const { module, exportName } = manifestModuleOf(capability)!;
      const loaded = await import(join(PROJECT_ROOT, `${module}.ts`));
      expect(loaded[exportName], capability.name).toBe(capability);
    }
  });

  it("take provider ports and timers' AWS access from declarations that cover what the code names", { timeout: 60_000 }, () => {
    const provided = new Map(CAPABILITIES.flatMap((c) => Object.keys(c.ports ?? {}).map((port) => [port, c] as const)));
    const byExport = new Map(CAPABILITIES.map((c) => [c.build!.manifest.export, c]));
    for (const spec of functionSpecs(APP)) {
      if (spec.kind === 'render' || spec.kind === 'stream-dispatcher' || !spec.appFunction || ['docs', 'mcp'].includes(spec.appFunction)) continue;
      const text = source(spec.kind, spec.appFunction);
      // The code the function runs: every project module its entry imports but the AWS adapters and the wiring.
      const roots = importsOf(text).filter((m) => !/^shared\/(composition|adapters\/aws)\//.test(m));
      const named = portsNamedFrom(roots);
      // The providers the entry builds: `<export>Ports` (a ports module) or `<export>.ports`.
      const given = new Set(
        [.../ports: Object\.assign\(\{\}, ([^)]*)\)/.exec(text)![1]!.matchAll(/(\w+?)(?:Ports|\.ports)\b/g)].flatMap((m) =>
          Object.keys(byExport.get(m[1]!)?.ports ?? {}),
        ),
      );
      const missing = [...named].filter((port) => provided.has(port) && !given.has(port));
      expect(missing, `${spec.kind}:${spec.appFunction} names provided ports its declarations do not give`).toEqual([]);
      if (spec.kind === 'jobs') {
        const group = APP.jobGroups.find((g) => g.name === spec.appFunction)!;
        const needs = new Set<string>(jobGroupNeeds(APP, group));
        const undeclared = [...named].filter((port) => (ALL_ACCESS_NEEDS as string[]).includes(port) && !needs.has(port));
        expect(undeclared, `jobs:${spec.appFunction} timers name AWS ports their jobNeeds do not declare`).toEqual([]);
      }
    }
  });

  it('resolve every declared ports module to the very ports object the manifest provides', async () => {
    for (const capability of CAPABILITIES.filter((c) => c.build?.ports)) {
      const found = portsModuleOf(capability)!;
      expect((await import(join(PROJECT_ROOT, `${found.module}.ts`)))[found.exportName], capability.name).toBe(capability.ports);
    }
  });

  // Resolves every API function's reach: seconds on a loaded machine, past the unit default of 5.
  it('give an API function its own operations, the port providers its code can reach, and only the AWS ports its needs name', { timeout: 30_000 }, () => {
    const catalog = importsOf(source('api', 'catalog'));
    expect(catalog).toContain('shared/catalog/operations');
    expect(catalog).toContain('shared/adapters/aws/blob');
    // Blob by its needs; Secrets Manager because its key routes verify session tokens too.
    expect(catalog.filter((m) => m.startsWith('shared/adapters/aws/'))).toEqual(['shared/adapters/aws/blob', 'shared/adapters/aws/secrets']);
    // The catalog's code never names a provided port: no processor, no Stripe, no Google client.
    expect(catalog.filter((m) => /^shared\/([a-z]+|adapters\/[a-z-]+)\/index$/.test(m)).sort()).toEqual([]);
    expect(catalog).not.toContain('shared/app');
    // Checkout charges through the processor's router, which reaches both providers: through their
    // ports modules, not their manifests (no hosted page, control routes or Stripe webhook route).
    const checkout = importsOf(source('api', 'checkout'));
    expect(checkout).toEqual(
      expect.arrayContaining(['shared/processor/ports', 'shared/adapters/processor-sandbox/ports', 'shared/adapters/processor-stripe/ports']),
    );
    expect(checkout.filter((m) => /processor.*\/index$/.test(m))).toEqual([]);
    expect(checkout).not.toContain('shared/sheets/index');
    // The sheets consumer writes rows through the spreadsheet port its own manifest provides.
    expect(importsOf(source('consumer', 'sheets-rows'))).toContain('shared/sheets/index');
    expect(importsOf(source('queue', 'webhooks')).filter((m) => /processor|sheets/.test(m))).toEqual([]);
    const account = importsOf(source('api', 'account'));
    expect(account.filter((m) => m.startsWith('shared/adapters/aws/'))).toEqual(['shared/adapters/aws/secrets']);
    // A function given no secret setting carries no Secrets Manager client.
    expect(importsOf(source('api', 'docs'))).not.toContain('shared/adapters/aws/secrets');
    expect(importsOf(source('queue', 'webhooks'))).not.toContain('shared/adapters/aws/secrets');
  });

  it('give the MCP function its tool catalog prebuilt and no capability', () => {
    const text = source('api', 'mcp');
    expect(importsOf(text).filter((m) => /^shared\/(?!composition|adapters)/.test(m))).toEqual([]);
    const catalog = unpackJson<{ name: string }[]>(JSON.parse(/prebuiltMcpGroup\(("[^"]+")\)/.exec(text)![1]!));
    expect(catalog.map((t) => t.name).sort()).toEqual(
      APP.apiOperations
        .filter((o) => o.tool)
        .map((o) => o.tool!)
        .sort(),
    );
  });

  it('keep the MCP server in the MCP function only, and the tracer only with tracing on', { timeout: 60_000 }, () => {
    for (const spec of functionSpecs(APP)) {
      const text = source(spec.kind, spec.appFunction);
      expect(text.includes('mcp-prebuilt')).toBe(spec.appFunction === 'mcp');
      expect(text).not.toContain('composition/tracing');
    }
    expect(importsOf(source('api', 'sales', true))).toContain('shared/composition/tracing');
  });

  it('give the stream dispatcher the bus and nothing of the capabilities', () => {
    const imports = importsOf(source('stream-dispatcher'));
    expect(imports.filter((m) => m.startsWith('shared/adapters/aws/'))).toEqual(['shared/adapters/aws/bus']);
    expect(imports.some((m) => /^shared\/[a-z]+\/index$/.test(m))).toBe(false);
  });

  it('give each job group a function with its own handlers only, and the old jobs queue a router with no capability', () => {
    const specs = functionSpecs(APP).filter((s) => s.kind === 'jobs');
    expect(specs.map((s) => s.appFunction)).toEqual([...APP.jobGroups.map((g) => g.name), undefined]);
    const manifests = (text: string) => importsOf(text).filter((m) => /^shared\/([a-z]+|adapters\/[a-z-]+)\/(index|ports)$/.test(m));
    // The imports sweep: its own module, no manifest, no processor, no mail, no other capability's
    // jobs, and not the service (file parsing, the catalog, the blob store).
    const imports = source('jobs', 'imports');
    expect(manifests(imports)).toEqual([]);
    expect(importsOf(imports)).toContain('shared/imports/sweep');
    expect(importsOf(imports).filter((m) => /imports\/(service|workers)$|aws\/blob/.test(m))).toEqual([]);
    expect(imports).toContain('jobsFunction(Object.assign({}, importsJobs), deps)');
    // The sandbox processor's timers and the Stripe adapter's recovery retries run in the processor group's function.
    expect(source('jobs', 'processor')).toContain('jobsFunction(Object.assign({}, SANDBOX_JOB_HANDLERS, STRIPE_JOB_HANDLERS), deps)');
    const handlersOf = (capability: (typeof CAPABILITIES)[number]) =>
      jobsModuleOf(capability)?.exportName ?? `${manifestModuleOf(capability)!.exportName}.jobs`;
    for (const group of APP.jobGroups) {
      const text = source('jobs', group.name);
      for (const capability of group.capabilities) expect(text, group.name).toContain(handlersOf(capability));
      for (const other of APP.jobGroups.filter((g) => g !== group)) {
        for (const capability of other.capabilities) expect(text, group.name).not.toMatch(new RegExp(`\\b${handlersOf(capability).replace('.', '\\.')}\\b`));
      }
    }
    // An automation step queues its mail for the email capability's worker and only reads the
    // post: its function gets no email port (SESv2); the email group, which sends, does.
    expect(importsOf(source('jobs', 'automations'))).not.toContain('shared/adapters/aws/email');
    expect(importsOf(source('jobs', 'email'))).toContain('shared/adapters/aws/email');
    const router = source('jobs');
    expect(manifests(router)).toEqual([]);
    expect(importsOf(router).filter((m) => m.startsWith('shared/adapters/aws/'))).toEqual(['shared/adapters/aws/queue']);
    expect(router).toContain('jobsRouterFunction(deps)');
    expect(router).toContain('"automation.step":"automations"');
  });

  it('import operations from their own module, the very object the manifest lists, without the manifest', async () => {
    let own = 0;
    for (const capability of CAPABILITIES) {
      const found = operationsModuleOf(capability);
      if (!found) continue;
      own++;
      expect((await import(join(PROJECT_ROOT, `${found.module}.ts`)))[found.exportName], capability.name).toBe(capability.operations);
    }
    expect(own).toBeGreaterThan(20);
    // Usage's API function runs its operations only: its timers' charges (the payment processor,
    // Stripe, KMS) stay in the usage timers' function.
    const usage = importsOf(source('api', 'usage'));
    expect(usage).toContain('shared/usage/operations');
    expect(usage.filter((m) => /processor|usage\/index|encryption/.test(m))).toEqual([]);
    expect(importsOf(source('jobs', 'usage'))).toEqual(expect.arrayContaining(['shared/usage/jobs', 'shared/processor/ports']));
    // Memberships lists its operations in one module too (it spread two lists in the manifest):
    // its API function carries no consumer, worker or privacy part.
    const memberships = importsOf(source('api', 'memberships'));
    expect(memberships).toContain('shared/memberships/operations');
    expect(memberships).not.toContain('shared/memberships/index');
  });

  it('import job handlers from their own module, the very object the manifest lists, without the manifest', async () => {
    let own = 0;
    for (const capability of CAPABILITIES.filter((c) => c.jobs)) {
      const found = jobsModuleOf(capability);
      if (!found) continue;
      own++;
      expect((await import(join(PROJECT_ROOT, `${found.module}.ts`)))[found.exportName], capability.name).toBe(capability.jobs);
    }
    // Every capability with timers but email, whose handlers are two modules' (it renders mail anyway).
    expect(own).toBe(CAPABILITIES.filter((c) => c.jobs).length - 1);
    // The team's invite-expiry timer runs without the team's operations, and so without its mail.
    const team = importsOf(source('jobs', 'team'));
    expect(team).toContain('shared/team/invite-end');
    expect(team.filter((m) => /^shared\/team\/(index|operations|service)$/.test(m) || m === 'shared/adapters/aws/email')).toEqual([]);
  });

  it('import a consumer or queue worker from its own module, the very object its manifest lists, without the manifest', async () => {
    let own = 0;
    for (const capability of CAPABILITIES) {
      for (const consumer of [...(capability.consumers ?? []), ...(capability.externalConsumers ?? []), ...(capability.queues ?? [])]) {
        const found = workerModuleOf(capability, consumer.name);
        if (!found) continue;
        own++;
        expect((await import(join(PROJECT_ROOT, `${found.module}.ts`)))[found.exportName], consumer.name).toBe(consumer);
      }
    }
    expect(own).toBeGreaterThan(20);
    // The buyer receipt consumer: its module, not the receipts manifest (its download routes).
    const receipts = importsOf(source('consumer', 'buyer-receipts'));
    expect(receipts).toContain('shared/receipts/consumers');
    expect(receipts).not.toContain('shared/receipts/index');
    expect(source('consumer', 'buyer-receipts')).toContain('consumerFunction(receiptConsumer, deps)');
  });

  it("a queue worker runs its queue from its own manifest, or from the queue's own module when it has one", () => {
    const text = source('queue', 'webhooks');
    expect(importsOf(text)).toContain('shared/webhooks/index');
    expect(text).toContain('queueFunction(webhooks.queues!.find((item) => item.name === "webhooks")!, deps)');
    // The members-only post notification: its batches, not the post writes and their HTML sanitiser.
    const notify = source('queue', 'membership-post-notify');
    expect(importsOf(notify)).toContain('shared/memberships/workers');
    expect(importsOf(notify)).not.toContain('shared/memberships/index');
    expect(notify).toContain('queueFunction(notifyQueue, deps)');
  });
});

describe('zod in bundles', () => {
  it('is reached through shared/platform/zod (zod/mini with English messages) everywhere: classic zod is ~65 KiB more in each function', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(path) && !path.endsWith(join('shared', 'platform', 'zod.ts')) && /from\s+'zod(\/[^']*)?'/.test(readFileSync(path, 'utf8')))
          offenders.push(path);
      }
    };
    for (const dir of ['shared', 'functions', 'lib', 'bin']) walk(join(PROJECT_ROOT, dir));
    expect(offenders).toEqual([]);
  });
});
