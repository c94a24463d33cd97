import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPABILITIES } from '../app';
import { ALL_ACCESS_NEEDS, type AccessNeed, type Capability } from '../platform/capability';
import { buildOpenApi } from '../docs/openapi';
import { toolCatalog } from '../mcp/catalog';
import { packJson } from './packed-json';
import type { App, JobGroup } from './assemble';
import { BASE_URL_PLACEHOLDER } from './docs-prebuilt';

/**
 * Each deployed function's entry, generated at build and synth time from the manifests, so its
 * bundle holds only what it runs: the manifest of its own capability (and of those providing a
 * port it may use), the AWS port modules its `needs` name, and the tracer only with tracing on.
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

/** The AWS port module of each need ('table' is the store itself). */
const PORT_MODULES: Record<Exclude<AccessNeed, 'table'> | 'bus', { port: string; module: string; factory: string }> = {
  queue: { port: 'queue', module: 'shared/adapters/aws/queue', factory: 'awsQueuePort' },
  scheduler: { port: 'scheduler', module: 'shared/adapters/aws/scheduler', factory: 'awsSchedulerPort' },
  blob: { port: 'blob', module: 'shared/adapters/aws/blob', factory: 'awsBlobPort' },
  email: { port: 'email', module: 'shared/adapters/aws/email', factory: 'awsEmailPort' },
  encryption: { port: 'encryption', module: 'shared/adapters/aws/encryption', factory: 'awsEncryptionPort' },
  render: { port: 'render', module: 'shared/adapters/aws/render', factory: 'awsRenderPort' },
  bus: { port: 'bus', module: 'shared/adapters/aws/bus', factory: 'awsBusPort' },
};

interface ManifestModule {
  exportName: string;
  /** Path below the project root, without extension. */
  module: string;
}

let modules: Map<Capability, ManifestModule> | undefined;

/**
 * Where each manifest of shared/app.ts is defined, read from that file's own import lines and
 * matched to the CAPABILITIES list by position, so the list stays the only place that names them.
 */
export function manifestModules(): Map<Capability, ManifestModule> {
  if (modules) return modules;
  const source = readFileSync(join(PROJECT_ROOT, 'shared', 'app.ts'), 'utf8');
  const imported = new Map<string, string>();
  for (const match of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*'\.\/([^']+)'/g)) {
    for (const name of match[1]!.split(',').map((n) => n.trim()).filter(Boolean)) imported.set(name, match[2]!);
  }
  const list = /CAPABILITIES[^=]*=\s*\[([^\]]*)\]/.exec(source)?.[1]?.split(',').map((n) => n.trim()).filter(Boolean) ?? [];
  if (list.length !== CAPABILITIES.length) throw new Error('Could not read the CAPABILITIES list of shared/app.ts');
  modules = new Map(
    list.map((exportName, i) => {
      const module = imported.get(exportName);
      if (!module) throw new Error(`shared/app.ts lists ${exportName} without importing it`);
      return [CAPABILITIES[i]!, { exportName, module: `shared/${module}` }];
    }),
  );
  return modules;
}

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
  const located = manifestModules();
  const imports = new Set<string>();
  const from = (module: string) => `../../${module}`;
  const manifest = (capability: Capability) => {
    const found = located.get(capability);
    if (!found) return undefined;
    imports.add(`import { ${found.exportName} } from '${from(found.module)}';`);
    return found.exportName;
  };
  const owner = (test: (c: Capability) => boolean) => app.capabilities.find(test);
  let needs: (AccessNeed | 'bus')[] = [];
  let handler: string;
  let capabilities: Capability[] = [];
  let roots: string[] | undefined;
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
        roots = [];
        for (const capability of served) {
          const own = operationsModuleOf(located.get(capability)?.module);
          if (own) {
            imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
            lists.push(`...${own.exportName}`);
            roots.push(own.module);
            continue;
          }
          capabilities.push(capability);
          const name = manifest(capability);
          if (!name) return undefined;
          lists.push(`...(${name}.operations ?? [])`);
          roots.push(located.get(capability)!.module);
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
      const own = workerModuleOf(located.get(capability)?.module, spec.appFunction!);
      if (own) {
        imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
        handler = `${fn}(${own.exportName}, deps)`;
        roots = [own.module];
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
        const own = jobsModuleOf(located.get(capability)?.module);
        if (!own) {
          capabilities.push(capability);
          const name = manifest(capability);
          return name && `${name}.jobs`;
        }
        imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
        return own.exportName;
      });
      if (handlers.some((n) => !n)) return undefined;
      roots = jobRoots(group, located);
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
  // The privacy port: every capability's privacy module, for a function whose code names it
  // (the privacy capability's); each is its own module, so no operations come with it, and the
  // ports those modules reach are provided as for the function's own code.
  roots ??= capabilities.map((c) => located.get(c)?.module).filter((m): m is string => !!m);
  let privacyParts: string[] | undefined;
  if (roots.length && portsReachedFrom(roots).has('privacy')) {
    privacyParts = [];
    for (const c of app.capabilities.filter((c) => c.privacy)) {
      const own = importedFieldModule(located.get(c)?.module, 'privacy');
      if (!own) {
        const name = manifest(c);
        if (!name) return undefined;
        privacyParts.push(`...${name}.privacy!`);
        continue;
      }
      imports.add(`import { ${own.exportName} } from '${from(own.module)}';`);
      privacyParts.push(`...${own.exportName}`);
      roots = [...roots, own.module];
    }
    imports.add(`import { privacyPort } from '${from('shared/platform/privacy')}';`);
  }
  // Ports that capabilities provide go to a function whose code can reach them (`ports.<name>` in
  // the files its manifests import), and so on for what those providers reach: a port no code of
  // the function names is never built, and its SDK (Stripe, Google) stays out of the bundle.
  roots ??= capabilities.map((c) => located.get(c)?.module).filter((m): m is string => !!m);
  const providers = roots.length ? reachableProviders(app, roots) : [];
  // A provider with a ports module (ports.ts beside its manifest, exporting `ports`) is reached
  // through it alone, unless the function runs that capability anyway.
  const providerNames = providers.map((provider) => {
    const module = located.get(provider);
    const portsModule = module && !capabilities.includes(provider) ? portsModuleOf(module.module) : undefined;
    if (!portsModule) return manifest(provider) && `${manifest(provider)}.ports`;
    imports.add(`import { ports as ${module!.exportName}Ports } from '${from(portsModule)}';`);
    return `${module!.exportName}Ports`;
  });
  if (providerNames.some((n) => !n)) return undefined;
  if (privacyParts) providerNames.push(`{ privacy: privacyPort([${privacyParts.join(', ')}]) }`);
  const core = [...new Set(needs)].filter((n): n is keyof typeof PORT_MODULES => n !== 'table').map((n) => PORT_MODULES[n]);
  for (const port of core) imports.add(`import { ${port.factory} } from '${from(port.module)}';`);
  const queues = needs.includes('queue') ? app.queues.map((q) => q.name) : [];
  // Scheduling a job, or sending one to the jobs queue, picks the queue of the group handling its type.
  const jobGroupOf = needs.includes('queue') || needs.includes('scheduler') ? app.jobGroupOf : undefined;
  const lines = [
    '// Generated from shared/app.ts by shared/composition/function-entries.ts; do not edit (build/ is git-ignored).',
    ...(options.tracing ? [`import '${from('shared/composition/tracing')}';`] : []),
    ...[...imports].sort(),
    '',
    `const deps = lambdaDeps({`,
    `  core: { ${core.map((p) => `${p.port}: ${p.factory}`).join(', ')} },`,
    `  ports: Object.assign({}, ${providerNames.join(', ') || '{}'}),`,
    `  queues: ${JSON.stringify(queues)},`,
    ...(jobGroupOf ? [`  jobGroupOf: ${JSON.stringify(jobGroupOf)},`] : []),
    `});`,
    '',
    `export const handler = ${handler};`,
    '',
  ];
  return lines.join('\n');
}

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
 * What a job group's function may touch in AWS. Timers run whatever their capability's services
 * do (an automation step sends mail through the email capability), which no declared `needs` of
 * an API group or worker covers, so they are read from the code: every core port (`ports.<name>`)
 * named in the files the group's manifests and the port providers they reach import. This is a
 * superset of what the handlers use, and so never too little.
 */
export function jobGroupNeeds(app: App, group: JobGroup): AccessNeed[] {
  const located = manifestModules();
  // A group assembled outside shared/app.ts cannot be read: it may touch anything, as before.
  if (group.capabilities.some((c) => !located.get(c))) return [...ALL_ACCESS_NEEDS];
  const modules = jobRoots(group, located);
  const providers = reachableProviders(app, modules).map((p) => located.get(p)?.module).filter((m): m is string => !!m);
  const reached = portsReachedFrom([...modules, ...providers.map((m) => portsModuleOf(m) ?? m)]);
  return ALL_ACCESS_NEEDS.filter((need) => need === 'table' || reached.has(need));
}

/** The modules a job group's code starts from: each capability's jobs module, or its manifest. */
function jobRoots(group: JobGroup, located: Map<Capability, ManifestModule>): string[] {
  return group.capabilities.flatMap((capability) => {
    const manifest = located.get(capability)?.module;
    if (!manifest) return [];
    return [jobsModuleOf(manifest)?.module ?? manifest];
  });
}

/**
 * The module a manifest takes its job handlers from when they are one imported name
 * (`jobs: teamJobs` with `import { teamJobs } from './invite-end'`), or undefined when they are
 * written in the manifest itself.
 */
export const jobsModuleOf = (manifestModule: string | undefined) => importedFieldModule(manifestModule, 'jobs');

/** Likewise for its operations (`operations: usageOperations`); not for a list built in place. */
export const operationsModuleOf = (manifestModule: string | undefined) => importedFieldModule(manifestModule, 'operations');

function importedFieldModule(manifestModule: string | undefined, field: 'jobs' | 'operations' | 'privacy'): ManifestModule | undefined {
  if (!manifestModule) return undefined;
  const text = readFileSync(join(PROJECT_ROOT, `${manifestModule}.ts`), 'utf8');
  const name = new RegExp(`\\b${field}:\\s*([A-Za-z_$][\\w$]*)\\s*[,}\\n]`).exec(text)?.[1];
  if (!name) return undefined;
  const specifier = new RegExp(`import\\s*\\{[^}]*\\b${name.replace(/\$/g, '\\$')}\\b[^}]*\\}\\s*from\\s*['"](\\.{1,2}/[^'"]+)['"]`).exec(text)?.[1];
  if (!specifier) return undefined;
  const module = join(dirname(manifestModule), specifier);
  return existsSync(join(PROJECT_ROOT, `${module}.ts`)) ? { exportName: name, module } : undefined;
}

/**
 * The module of a capability's folder that exports the consumer or queue named `name` as
 * `export const x: BusConsumer = { name: '<name>', ... }` (the name a literal, first), if exactly
 * one does; test/unit/function-entries.test.ts checks that each one found is the manifest's own.
 */
export function workerModuleOf(manifestModule: string | undefined, name: string): ManifestModule | undefined {
  if (!manifestModule) return undefined;
  const folder = join(PROJECT_ROOT, dirname(manifestModule));
  const pattern = new RegExp(`export const (\\w+)(?::\\s*\\w+)?\\s*=\\s*\\{\\s*name:\\s*['"]${name.replace(/[^\w-]/g, '')}['"]`);
  const found: ManifestModule[] = [];
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const match = pattern.exec(readFileSync(join(folder, file), 'utf8'));
    if (match) found.push({ exportName: match[1]!, module: join(dirname(manifestModule), file.replace(/\.ts$/, '')) });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The ports module beside a manifest (`shared/x/index` -> `shared/x/ports`), if there is one. */
function portsModuleOf(manifestModule: string): string | undefined {
  const module = join(dirname(manifestModule), 'ports');
  return existsSync(join(PROJECT_ROOT, `${module}.ts`)) ? module : undefined;
}

const PORT_ACCESS = /\bports\??\.(\w+)/g;
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g;
const fileCache = new Map<string, { imports: string[]; ports: string[] }>();

function resolveSource(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function scanFile(file: string): { imports: string[]; ports: string[] } {
  let scanned = fileCache.get(file);
  if (!scanned) {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(IMPORT_SPECIFIER)].map((m) => resolveSource(file, m[1]!)).filter((f): f is string => !!f);
    scanned = { imports: [...new Set(imports)], ports: [...new Set([...text.matchAll(PORT_ACCESS)].map((m) => m[1]!))] };
    fileCache.set(file, scanned);
  }
  return scanned;
}

/** Every port name (`ports.<name>`) in the project files these modules import, transitively. */
function portsReachedFrom(modules: string[]): Set<string> {
  const seen = new Set<string>();
  const ports = new Set<string>();
  const pending = modules.map((m) => resolveSource(join(PROJECT_ROOT, 'x.ts'), `./${m}`)).filter((f): f is string => !!f);
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { imports, ports: named } = scanFile(file);
    for (const port of named) ports.add(port);
    pending.push(...imports);
  }
  return ports;
}

/** The port-providing capabilities a function running these manifests' code can reach. */
export function reachableProviders(app: App, manifestModules: string[]): Capability[] {
  const located = manifestModules.length ? manifestModules : [];
  const all = app.capabilities.filter((c) => Object.keys(c.ports ?? {}).length);
  const modules = manifestModulesOf(all);
  const chosen = new Set<Capability>();
  let used = portsReachedFrom(located);
  for (let changed = true; changed; ) {
    changed = false;
    for (const provider of all) {
      if (chosen.has(provider) || !Object.keys(provider.ports ?? {}).some((name) => used.has(name))) continue;
      chosen.add(provider);
      changed = true;
      const module = modules.get(provider);
      // A provider outside shared/app.ts cannot be located: keep every provider (the old behaviour).
      if (!module) return all;
      used = new Set([...used, ...portsReachedFrom([portsModuleOf(module) ?? module])]);
    }
  }
  return all.filter((c) => chosen.has(c));
}

const manifestModulesOf = (capabilities: Capability[]) => {
  const located = manifestModules();
  return new Map(capabilities.map((c) => [c, located.get(c)?.module] as const));
};

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
