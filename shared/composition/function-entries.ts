import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_ACCESS_NEEDS, type AccessNeed, type BuildDeclaration, type Capability } from '../platform/capability';
import { buildOpenApi } from '../docs/openapi';
import { toolCatalog } from '../mcp/catalog';
import { packJson } from './packed-json';
import type { App, JobGroup } from './assemble';
import { BASE_URL_PLACEHOLDER } from './docs-prebuilt';
import { deriveSettings, secretsOf } from './function-settings';
import type { Setting } from '../platform/settings';

/**
 * Each deployed function's entry, generated at build and synth time from the manifests, so its
 * bundle holds only what it runs: the manifest of its own capability (and of those providing a
 * port it may use), the AWS port modules its `needs` name, and the tracer only with tracing on
 * (loaded on the first invocation: tracing.ts).
 * The generic entries in functions/ bundle the whole app; these are what `cdk deploy` ships.
 * Files go to build/functions/ (git-ignored); nothing here is kept by hand.
 */
export type FunctionKind = 'api' | 'consumer' | 'external-consumer' | 'queue' | 'jobs' | 'stream-dispatcher' | 'render';

export interface FunctionSpec {
  kind: FunctionKind;
  /** The API group, bus consumer, queue or job group it runs (its APP_FUNCTION); a `jobs` function without one is the legacy jobs queue's router. */
  appFunction?: string;
}

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ENTRY_DIR = join(PROJECT_ROOT, 'build', 'functions');

/**
 * The AWS port factory of each need ('table' is the store itself): each imports its adapter and
 * SDK client on the port's first call (shared/adapters/aws/deferred/).
 */
const deferredPort = (port: string) => ({
  port,
  module: `shared/adapters/aws/deferred/${port}`,
  factory: `deferred${port[0]!.toUpperCase()}${port.slice(1)}Port`,
});
const PORT_MODULES: Record<Exclude<AccessNeed, 'table'> | 'bus' | 'secrets', { port: string; module: string; factory: string }> = {
  secrets: deferredPort('secrets'),
  queue: deferredPort('queue'),
  scheduler: deferredPort('scheduler'),
  blob: deferredPort('blob'),
  email: deferredPort('email'),
  encryption: deferredPort('encryption'),
  render: deferredPort('render'),
  bus: deferredPort('bus'),
};

interface ManifestModule {
  exportName: string;
  /** Path below the project root, without extension. */
  module: string;
}

/** The module a manifest's declared `build.manifest.url` names, below the project root. */
function declaredModule(build: BuildDeclaration): string {
  return relative(PROJECT_ROOT, fileURLToPath(build.manifest.url))
    .replace(/\.[cm]?[tj]sx?$/, '')
    .split(sep)
    .join('/');
}

/** `./file#export`, relative to the manifest, as a module below the project root and its export. */
function resolveReference(build: BuildDeclaration, reference: string): ManifestModule {
  const [specifier, exportName] = reference.split('#');
  if (!specifier || !exportName) throw new Error(`${build.manifest.export}: "${reference}" is not ./file#export`);
  return {
    exportName,
    module: join(dirname(declaredModule(build)), specifier)
      .split(sep)
      .join('/'),
  };
}

/** Where a manifest is defined, from its own `build` declaration; undefined for one that has none. */
export function manifestModuleOf(capability: Capability): ManifestModule | undefined {
  const build = capability.build;
  return build && { exportName: build.manifest.export, module: declaredModule(build) };
}

/** The module of its operations, when declared as one export of their own module. */
export const operationsModuleOf = (capability: Capability) => reference(capability, capability.build?.operations);

/** The module of its job handlers, likewise. */
export const jobsModuleOf = (capability: Capability) => reference(capability, capability.build?.jobs);

/** The module of a consumer or queue worker, when declared in a module of its own. */
export const workerModuleOf = (capability: Capability, name: string) => reference(capability, capability.build?.workers?.[name]);

/** The module of the ports it provides, when declared. */
export const portsModuleOf = (capability: Capability) => reference(capability, capability.build?.ports);

const reference = (capability: Capability, ref: string | undefined) => (capability.build && ref ? resolveReference(capability.build, ref) : undefined);

/** Every function the stacks deploy. */
export function functionSpecs(app: App): FunctionSpec[] {
  return [
    ...app.groups.map((g) => ({ kind: 'api' as const, appFunction: g.name })),
    ...app.consumers.map((c) => ({ kind: 'consumer' as const, appFunction: c.name })),
    ...app.externalConsumers.map((c) => ({ kind: 'external-consumer' as const, appFunction: c.name })),
    ...app.queues.map((q) => ({ kind: 'queue' as const, appFunction: q.name })),
    ...app.jobGroups.map((g) => ({ kind: 'jobs' as const, appFunction: g.name })),
    { kind: 'jobs' },
    { kind: 'stream-dispatcher' },
    { kind: 'render' },
  ];
}

const entryName = (spec: FunctionSpec) => (spec.appFunction ? `${spec.kind}-${spec.appFunction}` : spec.kind);

/** The source of one function's entry, or undefined when a capability is not in shared/app.ts (the generic entry serves it). */
export function entrySource(app: App, spec: FunctionSpec, options: { tracing: boolean }): string | undefined {
  if (spec.kind === 'render') return renderEntrySource();
  const imports = new Set<string>();
  const from = (module: string) => `../../${module}`;
  const manifest = (capability: Capability) => {
    const found = manifestModuleOf(capability);
    if (!found) return undefined;
    imports.add(`import { ${found.exportName} } from '${from(found.module)}';`);
    return found.exportName;
  };
  const owner = (test: (c: Capability) => boolean) => app.capabilities.find(test);
  let needs: (AccessNeed | 'bus')[] = [];
  let handler: string;
  let capabilities: Capability[] = [];
  // The provided ports (fields of `Ports`) its code calls, as its manifest declares them.
  let uses: string[] = [];
  switch (spec.kind) {
    case 'api': {
      const group = app.groups.find((g) => g.name === spec.appFunction)!;
      needs = group.needs;
      if (group.name === 'docs') {
        // The contract is built here, from every manifest, and shipped prebuilt: the function
        // carries no capability (shared/composition/docs-prebuilt.ts).
        const documented = [...app.apiOperations, ...group.operations, ...(app.groups.find((g) => g.name === 'mcp')?.operations ?? [])];
        const contract = packJson(buildOpenApi(documented, BASE_URL_PLACEHOLDER));
        imports.add(`import { prebuiltDocsGroup } from '${from('shared/composition/docs-prebuilt')}';`);
        handler = `apiFunction(prebuiltDocsGroup(${JSON.stringify(contract)}), deps)`;
      } else if (group.name === 'mcp') {
        // The tool catalog is built here, from every manifest, and shipped prebuilt: the function
        // carries the MCP SDK and no capability (tool calls go to the API).
        const catalog = packJson(toolCatalog(app.apiOperations));
        imports.add(`import { prebuiltMcpGroup } from '${from('shared/composition/mcp-prebuilt')}';`);
        handler = `apiFunction(prebuiltMcpGroup(${JSON.stringify(catalog)}), deps)`;
      } else {
        // Every capability the group serves: its own, and those riding on its function
        // (`apiFunction`: the sandbox's hosted page on the processor's, the audit log on the team's).
        // Operations a manifest takes from a module as one imported name are imported from there:
        // the function then bundles the operations and what they reach, not the capability's
        // timers and workers (the usage timers' charges reach the payment processor).
        const served = app.capabilities.filter((c) => c.operations?.length && (c.apiFunction ?? c.name) === group.name);
        const lists: string[] = [];
        for (const capability of served) {
          uses = [...uses, ...(capability.build?.uses?.api ?? [])];
          const own = operationsModuleOf(capability);
          if (own) {
            imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
            lists.push(`...${own.exportName}`);
            continue;
          }
          capabilities.push(capability);
          const name = manifest(capability);
          if (!name) return undefined;
          lists.push(`...(${name}.operations ?? [])`);
        }
        handler = `apiFunction([${lists.join(', ')}], deps)`;
      }
      imports.add(`import { apiFunction, lambdaDeps } from '${from('shared/composition/lambda')}';`);
      break;
    }
    case 'consumer':
    case 'external-consumer':
    case 'queue': {
      const field = spec.kind === 'consumer' ? 'consumers' : spec.kind === 'external-consumer' ? 'externalConsumers' : 'queues';
      const capability = owner((c) => (c[field] ?? []).some((item) => item.name === spec.appFunction))!;
      const item = capability[field]!.find((i) => i.name === spec.appFunction)!;
      needs = item.needs ?? ['table'];
      const fn = spec.kind === 'consumer' ? 'consumerFunction' : spec.kind === 'external-consumer' ? 'externalConsumerFunction' : 'queueFunction';
      imports.add(`import { ${fn}, lambdaDeps } from '${from('shared/composition/lambda')}';`);
      // A consumer or queue worker exported from its own module is imported from there, not
      // through the manifest: the function then bundles that worker's code alone, not its
      // capability's operations and other workers (the email worker's renderer, a capability's
      // processor calls, the memberships post sanitiser).
      uses = capability.build?.uses?.workers?.[spec.appFunction!] ?? [];
      const own = workerModuleOf(capability, spec.appFunction!);
      if (own) {
        imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
        handler = `${fn}(${own.exportName}, deps)`;
        break;
      }
      capabilities = [capability];
      const name = manifest(capability);
      if (!name) return undefined;
      handler = `${fn}(${name}.${field}!.find((item) => item.name === ${JSON.stringify(spec.appFunction)})!, deps)`;
      break;
    }
    case 'jobs': {
      if (!spec.appFunction) {
        needs = ['queue'];
        imports.add(`import { jobsRouterFunction, lambdaDeps } from '${from('shared/composition/lambda')}';`);
        handler = 'jobsRouterFunction(deps)';
        break;
      }
      const group = app.jobGroups.find((g) => g.name === spec.appFunction)!;
      // Job handlers a manifest takes from a module of their own are imported from there (as a
      // consumer in its own module is): the function then bundles the timers' code, not the
      // capability's operations and workers.
      const handlers = group.capabilities.map((capability) => {
        const own = jobsModuleOf(capability);
        if (!own) {
          capabilities.push(capability);
          const name = manifest(capability);
          return name && `${name}.jobs`;
        }
        imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
        return own.exportName;
      });
      if (handlers.some((n) => !n)) return undefined;
      uses = group.capabilities.flatMap((c) => c.build?.uses?.jobs ?? []);
      needs = jobGroupNeeds(app, group);
      imports.add(`import { jobsFunction, lambdaDeps } from '${from('shared/composition/lambda')}';`);
      handler = `jobsFunction(Object.assign({}, ${handlers.join(', ')}), deps)`;
      break;
    }
    case 'stream-dispatcher':
      needs = ['table', 'bus'];
      imports.add(`import { lambdaDeps, streamFunction } from '${from('shared/composition/lambda')}';`);
      handler = 'streamFunction(deps)';
      break;
  }
  // The privacy port (shared/platform/privacy.ts): every capability's privacy parts, from the
  // module each declares (`build.privacy`), for a function that declares it uses them; the ports
  // those parts call join as for its own code.
  let privacyParts: string[] | undefined;
  if (uses.includes('privacy')) {
    privacyParts = [];
    for (const c of app.capabilities.filter((c) => c.privacy?.length)) {
      const own = reference(c, c.build?.privacy);
      if (!own) {
        const name = manifest(c);
        if (!name) return undefined;
        privacyParts.push(`...${name}.privacy!`);
      } else {
        imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
        privacyParts.push(`...${own.exportName}`);
      }
      uses = [...uses, ...(c.build?.uses?.privacy ?? [])];
    }
    imports.add(`import { privacyPort } from '${from('shared/platform/privacy')}';`);
  }
  // The capabilities providing the ports its code calls (and those their own code calls) join
  // the function: a port nothing of the function calls is never built, and its SDK (Stripe,
  // Google) stays out of the bundle.
  const providers = providersFor(app, uses);
  if (!providers) return undefined;
  // A provider with a ports module is reached through it alone, unless the function runs that
  // capability anyway.
  const providerNames = providers.map((provider) => {
    const ports = !capabilities.includes(provider) ? portsModuleOf(provider) : undefined;
    if (!ports) return manifest(provider) && `${manifest(provider)}.ports`;
    const alias = `${provider.build!.manifest.export}Ports`;
    imports.add(`import { ${ports.exportName} as ${alias} } from '${from(ports.module)}';`);
    return alias;
  });
  if (providerNames.some((n) => !n)) return undefined;
  if (privacyParts) providerNames.push(`{ privacy: privacyPort([${privacyParts.join(', ')}]) }`);
  // Secrets Manager only for a function given a secret setting (the client stays out of the rest).
  const withSecrets = secretsOf(deriveSettings(app, spec, needs)).length ? (['secrets'] as const) : [];
  const core = [...withSecrets, ...new Set(needs)].filter((n): n is keyof typeof PORT_MODULES => n !== 'table').map((n) => PORT_MODULES[n]);
  for (const port of core) imports.add(`import { ${port.factory} } from '${from(port.module)}';`);
  const queues = needs.includes('queue') ? app.queues.map((q) => q.name) : [];
  // Scheduling a job, or sending one to the jobs queue, picks the queue of the group handling its type.
  const jobGroupOf = needs.includes('queue') || needs.includes('scheduler') ? app.jobGroupOf : undefined;
  const lines = [
    '// Generated from shared/app.ts by shared/composition/function-entries.ts; do not edit (build/ is git-ignored).',
    // First, so the tracing is installed before the handler is built (ESM runs imports in order).
    ...(options.tracing ? [`import { traced } from '${from('shared/composition/tracing')}';`] : []),
    ...[...imports].sort(),
    '',
    `const deps = lambdaDeps({`,
    `  core: { ${core.map((p) => `${p.port}: ${p.factory}`).join(', ')} },`,
    `  ports: Object.assign({}, ${providerNames.join(', ') || '{}'}),`,
    `  queues: ${JSON.stringify(queues)},`,
    ...(jobGroupOf ? [`  jobGroupOf: ${JSON.stringify(jobGroupOf)},`] : []),
    `});`,
    '',
    `export const handler = ${options.tracing ? `traced(${handler})` : handler};`,
    '',
  ];
  return lines.join('\n');
}

/** What a function may touch in AWS, as its entry composes it (and the CDK grants it). */
export function functionNeeds(app: App, spec: FunctionSpec): (AccessNeed | 'bus')[] {
  switch (spec.kind) {
    case 'api':
      return app.groups.find((g) => g.name === spec.appFunction)?.needs ?? [];
    case 'consumer':
      return app.consumers.find((c) => c.name === spec.appFunction)?.needs ?? ['table'];
    case 'external-consumer':
      return app.externalConsumers.find((c) => c.name === spec.appFunction)?.needs ?? ['table'];
    case 'queue':
      return app.queues.find((q) => q.name === spec.appFunction)?.needs ?? ['table'];
    case 'jobs': {
      const group = spec.appFunction ? app.jobGroups.find((g) => g.name === spec.appFunction) : undefined;
      return group ? jobGroupNeeds(app, group) : ['queue'];
    }
    case 'stream-dispatcher':
      return ['table', 'bus'];
    case 'render':
      return [];
  }
}

/** The settings a function is given (function-settings.ts): the CDK wires exactly these. */
export const functionSettings = (app: App, spec: FunctionSpec): Setting[] => deriveSettings(app, spec, functionNeeds(app, spec));

/**
 * The render function's entry: the renderer alone, with no store, no port and no capability (it
 * reaches nothing, and is granted nothing).
 */
function renderEntrySource(): string {
  // No tracer either: it instruments handlers and AWS clients, and this one has neither (Lambda
  // still records the invocation when tracing is on).
  return [
    '// Generated by shared/composition/function-entries.ts; do not edit (build/ is git-ignored).',
    "import { renderFunction } from '../../shared/composition/render';",
    '',
    'export const handler = renderFunction;',
    '',
  ].join('\n');
}

/**
 * What a job group's function may touch in AWS: what its capabilities declare their timers need
 * (`build.jobNeeds`). Timers run whatever their capability's services do (an automation step
 * sends mail through the email capability), which no API group's or worker's `needs` covers.
 */
export function jobGroupNeeds(_app: App, group: JobGroup): AccessNeed[] {
  // A group assembled outside shared/app.ts declares nothing: it may touch anything, as before.
  if (group.capabilities.some((c) => !c.build?.jobNeeds)) return [...ALL_ACCESS_NEEDS];
  const needs = new Set(group.capabilities.flatMap((c) => c.build!.jobNeeds!));
  return ALL_ACCESS_NEEDS.filter((need) => need === 'table' || needs.has(need));
}

/**
 * The port-providing capabilities a function whose code calls these ports needs: each provider
 * of a called port, and in turn the providers of what its own ports code calls. Undefined when a
 * provider declares no build (assembled outside shared/app.ts): the generic entry serves it.
 */
export function providersFor(app: App, used: string[]): Capability[] | undefined {
  const all = app.capabilities.filter((c) => Object.keys(c.ports ?? {}).length);
  const called = new Set(used);
  const chosen = new Set<Capability>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const provider of all) {
      if (chosen.has(provider) || !Object.keys(provider.ports ?? {}).some((name) => called.has(name))) continue;
      if (!provider.build) return undefined;
      chosen.add(provider);
      changed = true;
      for (const port of provider.build.uses?.ports ?? []) called.add(port);
    }
  }
  return all.filter((c) => chosen.has(c));
}

/**
 * Writes the entry of one function and answers its path; falls back to the generic entry in
 * functions/ for a capability assembled outside shared/app.ts (tests of the derivation).
 */
export function writeFunctionEntry(app: App, spec: FunctionSpec, options: { tracing: boolean }): string {
  const source = entrySource(app, spec, options);
  if (source === undefined) return join(PROJECT_ROOT, 'functions', `${spec.kind}.ts`);
  const dir = ENTRY_DIR;
  const file = join(dir, `${entryName(spec)}${options.tracing ? '.traced' : ''}.ts`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(file) || readFileSync(file, 'utf8') !== source) writeFileSync(file, source);
  return file;
}

export const relativeToRoot = (file: string) => relative(PROJECT_ROOT, file);
