import { cachedContract } from '../docs/openapi';
import { docsOperations } from '../docs/operations';
import { toolCatalog } from '../mcp/catalog';
import { mcpOperations } from '../mcp/operations';
import type { ToolEntry } from '../mcp/tool-entry';
import type {
  AccessNeed,
  BusConsumer,
  Capability,
  ExternalEventConsumer,
  ControlRoute,
  JobHandler,
  PortFactory,
  QueueDeclaration,
  RecurringSchedule,
} from '../platform/capability';
import { routeKey, type AnyOperation } from '../platform/operation';
import { privacyPort, type PrivacyPart } from '../platform/privacy';

/** One API function and its routes. */
export interface ApiGroup {
  name: string;
  operations: AnyOperation[];
  needs: AccessNeed[];
}

/**
 * One jobs function and its queue: the job handlers of the capabilities that share an API function
 * (grouped as `groups` are), and the recurring schedules that fire those job types.
 */
export interface JobGroup {
  name: string;
  /** The capabilities of the group that declare job handlers. */
  capabilities: Capability[];
  jobs: Record<string, JobHandler>;
  /** The recurring schedules whose job type this group handles (declared by any capability). */
  schedules: RecurringSchedule[];
}

export { JOBS_QUEUE } from './jobs';
import { JOBS_QUEUE } from './jobs';

/** Everything the CDK stacks, the Lambda entries and the local runtime need, derived from the list. */
export interface App {
  capabilities: Capability[];
  /** The capabilities' groups, then docs and MCP. */
  groups: ApiGroup[];
  /** The capabilities' operations (what docs describe besides themselves and what MCP offers). */
  apiOperations: AnyOperation[];
  allOperations: { group: string; operation: AnyOperation }[];
  consumers: BusConsumer[];
  /** Consumers of other services' events (rules on the default bus in AWS). */
  externalConsumers: ExternalEventConsumer[];
  jobs: Record<string, JobHandler>;
  /** One jobs queue and function per group of capabilities with job handlers. */
  jobGroups: JobGroup[];
  /** The job group (its queue) of each job type. */
  jobGroupOf: Record<string, string>;
  queues: QueueDeclaration[];
  schedules: RecurringSchedule[];
  controlRoutes: ControlRoute[];
  ports: Record<string, PortFactory>;
  eventTypes: string[];
  /** Every capability's part of a buyer's personal data (also the `privacy` port). */
  privacyParts: PrivacyPart[];
}

function unique<T>(items: T[], key: (item: T) => string, what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    const name = key(item);
    if (seen.has(name)) throw new Error(`Two capabilities declare the ${what} ${name}`);
    seen.add(name);
  }
}

/** Derives the whole application from its capability manifests, refusing any clash between them. */
export function assembleApp(capabilities: Capability[]): App {
  unique(capabilities, (c) => c.name, 'capability');
  const apiOperations = capabilities.flatMap((c) => c.operations ?? []);
  let catalog: ToolEntry[] | undefined;
  const mcp = mcpOperations(() => (catalog ??= toolCatalog(apiOperations)));
  const docs: AnyOperation[] = docsOperations(cachedContract(() => [...apiOperations, ...docs, ...mcp]));
  // One group per API function; a capability naming another's function (apiFunction) joins it.
  const capabilityGroups = new Map<string, ApiGroup>();
  for (const c of capabilities.filter((c) => c.operations?.length)) {
    const name = c.apiFunction ?? c.name;
    const group = capabilityGroups.get(name);
    const needs = c.needs ?? ['table'];
    if (!group) capabilityGroups.set(name, { name, operations: [...c.operations!], needs: [...needs] });
    else {
      group.operations.push(...c.operations!);
      group.needs.push(...needs.filter((need) => !group.needs.includes(need)));
    }
  }
  const groups: ApiGroup[] = [
    ...capabilityGroups.values(),
    { name: 'docs', operations: docs, needs: [] },
    // The MCP function sends each tool call to the API as a request: it only reads keys (auth).
    { name: 'mcp', operations: mcp, needs: ['table'] },
  ];
  unique(groups, (g) => g.name, 'API function');
  const allOperations = groups.flatMap((group) => group.operations.map((operation) => ({ group: group.name, operation })));
  unique(allOperations, ({ operation }) => routeKey(operation), 'route');
  unique(allOperations, ({ operation }) => operation.operationId, 'operationId');
  unique(
    apiOperations.filter((o) => o.tool),
    (o) => o.tool!,
    'MCP tool',
  );

  const consumers = capabilities.flatMap((c) => c.consumers ?? []);
  const externalConsumers = capabilities.flatMap((c) => c.externalConsumers ?? []);
  // One namespace: both become a function named after the consumer.
  unique([...consumers, ...externalConsumers], (c) => c.name, 'bus consumer');
  const jobEntries = capabilities.flatMap((c) => Object.entries(c.jobs ?? {}));
  unique(jobEntries, ([type]) => type, 'job type');
  const queues = capabilities.flatMap((c) => c.queues ?? []);
  unique([{ name: JOBS_QUEUE }, ...queues], (q) => q.name, 'queue');
  const schedules = capabilities.flatMap((c) => c.schedules ?? []);
  unique(schedules, (s) => s.name, 'schedule');
  const jobs = Object.fromEntries(jobEntries);
  for (const schedule of schedules)
    if (!jobs[schedule.job.type]) throw new Error(`Schedule ${schedule.name} fires job ${schedule.job.type}, which no capability handles`);
  // A job runs in the jobs function of its capability's API group, so a provider's timers (the
  // sandbox processor's) run beside the capability whose function already serves its routes.
  const jobGroups = new Map<string, JobGroup>();
  const jobGroupOf: Record<string, string> = {};
  for (const c of capabilities.filter((c) => Object.keys(c.jobs ?? {}).length)) {
    const name = c.apiFunction ?? c.name;
    const group = jobGroups.get(name) ?? { name, capabilities: [], jobs: {}, schedules: [] };
    jobGroups.set(name, group);
    group.capabilities.push(c);
    Object.assign(group.jobs, c.jobs);
    for (const type of Object.keys(c.jobs!)) jobGroupOf[type] = name;
  }
  for (const schedule of schedules) jobGroups.get(jobGroupOf[schedule.job.type]!)!.schedules.push(schedule);
  const controlRoutes = capabilities.flatMap((c) => c.controlRoutes ?? []);
  unique(controlRoutes, (r) => `${r.method} ${r.path}`, 'control route');
  const portEntries = capabilities.flatMap((c) => Object.entries(c.ports ?? {}));
  unique(portEntries, ([name]) => name, 'port');
  const privacyParts = capabilities.flatMap((c) => c.privacy ?? []);
  unique(privacyParts, (p) => p.name, 'privacy part');
  if (privacyParts.filter((p) => p.subject).length > 1) throw new Error('Two privacy parts resolve customers (subject)');

  return {
    capabilities,
    groups,
    apiOperations,
    allOperations,
    consumers,
    externalConsumers,
    jobs,
    jobGroups: [...jobGroups.values()],
    jobGroupOf,
    queues,
    schedules,
    controlRoutes,
    ports: { ...Object.fromEntries(portEntries), privacy: privacyPort(privacyParts) },
    privacyParts,
    eventTypes: [...new Set(capabilities.flatMap((c) => c.eventTypes ?? []))],
  };
}
