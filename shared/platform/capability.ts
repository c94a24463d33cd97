import type { Deps } from './context';
import type { DomainEvent } from './events';
import type { AnyOperation } from './operation';
import type { Job } from './ports';
import type { Setting } from './settings';
import type { PrivacyPart } from './privacy';

/**
 * The contracts a capability implements, and its manifest. A capability is one folder under
 * shared/ whose index.ts exports a `Capability`; shared/app.ts lists them, and the API groups, the
 * bus rules, the queues and their workers, the job handlers, the recurring schedules, the CDK
 * resources, both dependency builders and the local runtime's router and control API are all
 * derived from that list. Nothing here knows any capability.
 */

/** What a function may touch in AWS; the CDK grants exactly these (least privilege). */
export type AccessNeed = 'table' | 'queue' | 'scheduler' | 'blob' | 'encryption' | 'email' | 'render';
export const ALL_ACCESS_NEEDS: AccessNeed[] = ['table', 'queue', 'scheduler', 'blob', 'encryption', 'email', 'render'];

/** A receiver of committed domain events (an EventBridge rule target in AWS). */
export interface BusConsumer {
  /** Function name, unique across the app; the CDK ids derive from it. */
  name: string;
  /** Event types it receives ('*' for all). */
  eventTypes: string[] | '*';
  /** What its function may touch in AWS (default: the table). */
  needs?: AccessNeed[];
  /** Settings its code reads (shared/platform/settings.ts); the CDK gives its function exactly these. */
  settings?: Setting[];
  /** Must be idempotent on event.id: the bus delivers at least once. */
  handle(event: DomainEvent, deps: Deps): Promise<void>;
}

/** An event another AWS service published (an EventBridge event as delivered, detail untouched). */
export interface ExternalEvent {
  id: string;
  source: string;
  detailType: string;
  time: string;
  detail: Record<string, unknown>;
}

/**
 * A receiver of events another service publishes on the account's default event bus (SES
 * configuration-set events: source `aws.ses`). In AWS a rule on the default bus targets its
 * function; the local runtime has no such bus, so a control route stands in for the service.
 */
export interface ExternalEventConsumer {
  /** Function name, unique across the app (bus consumers included); the CDK ids derive from it. */
  name: string;
  /** The publishing service's `source` (e.g. `aws.ses`). */
  source: string;
  /** The detail types it receives. */
  detailTypes: string[];
  needs?: AccessNeed[];
  settings?: Setting[];
  /** Must be idempotent on event.id: EventBridge delivers at least once. */
  handle(event: ExternalEvent, deps: Deps): Promise<void>;
}

export const matchesConsumer = (consumer: Pick<BusConsumer, 'eventTypes'>, type: string) => consumer.eventTypes === '*' || consumer.eventTypes.includes(type);

/** Runs a job the scheduler fired (through the jobs queue), by job type. Must be idempotent. */
export type JobHandler = (job: Job, deps: Deps) => Promise<void>;

/** Consumes one message of a capability's own SQS queue. A throw returns it to the queue. */
export type QueueHandler = (message: Record<string, unknown>, deps: Deps) => Promise<void>;

/** A capability's own queue: an SQS queue with a dead-letter queue and a worker function. */
export interface QueueDeclaration {
  /** The name services send to (`deps.ports.queue.send(name, …)`), unique across the app. */
  name: string;
  handle: QueueHandler;
  needs?: AccessNeed[];
  settings?: Setting[];
  /** Longest a message may take; the queue's visibility timeout is set from it. */
  timeoutSeconds?: number;
  batchSize?: number;
  /** CDK construct ids of the queue and its worker, for resources that predate the manifests. */
  cdkIds?: { queue: string; worker: string };
}

/** A recurring timer (EventBridge Scheduler recurring schedule in AWS; a timer item locally). */
export interface RecurringSchedule {
  /** Unique across the app. */
  name: string;
  /** Every day at this UTC time, or every N minutes. */
  every: { dailyAtUtc: { hour: number; minute: number } } | { minutes: number };
  /** The job it puts on the jobs queue; its type must have a handler in some manifest. */
  job: Job;
}

/** What a capability's control route can reach inside the running local runtime (docs/architecture.md, "The local runtime"). */
export interface LocalRuntimeHandle {
  deps: Deps;
  baseUrl: string;
  /** Waits until queues, stream, bus and due timers are idle. */
  settle(): Promise<void>;
  /** Moves the clock forward, stopping at each timer on the way so it fires at its own time. */
  advance(seconds: number): Promise<Date>;
}

export interface ControlRoute<H extends LocalRuntimeHandle = LocalRuntimeHandle> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'OPTIONS';
  path: string;
  /** The body is bytes (`raw`), not JSON: the local blob's part uploads. */
  rawBody?: true;
  /** A string body with a `content-type` header is sent as is (a local page); anything else as JSON. */
  handle(
    runtime: H,
    input: { params: Record<string, string>; query: Record<string, string>; body: Record<string, unknown>; raw?: Buffer },
  ): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>;
}

/** What the local runtime offers a port built for it. */
export interface LocalHost {
  /** Base address of the running local API. */
  baseUrl(): string;
  /** Counts work under way, so `settle` waits for it. */
  work: { begin(label: string): () => void };
  /** Folder for persistent local files; undefined with --memory. */
  dataDir?: string;
}

/**
 * A port that belongs to one capability (the payment processor, the spreadsheet provider): its
 * AWS and local factories. The capability declares its field on `Ports` by declaration merging.
 */
export interface PortFactory {
  aws(deps: Deps): unknown;
  local(deps: Deps, host: LocalHost): unknown;
}

/**
 * Where a capability's parts live and what their code reaches that no other declaration says: the
 * build writes each deployed function's entry from it, importing only what that function runs,
 * and the Jobs stack grants each timers' function from it. Nothing reads source text to decide
 * (test/unit/function-entries.test.ts checks that each reference names the very object the
 * manifest holds, and that the declared ports cover what the code reaches).
 *
 * A module reference is `./file#export`, relative to the manifest's module.
 */
export interface BuildDeclaration {
  /** The manifest's own module (`import.meta.url`) and the name it is exported under. */
  manifest: { url: string; export: string };
  /** Its operations, when they are one export of a module of their own (else the manifest's). */
  operations?: string;
  /** Its job handlers, likewise. */
  jobs?: string;
  /** A consumer's or queue's own module, by its name (else the manifest's). */
  workers?: Record<string, string>;
  /** The ports it provides, when a module of their own holds them as `ports`. */
  ports?: string;
  /** Its privacy parts (`privacy`), when one export of a module of their own holds them. */
  privacy?: string;
  /**
   * Ports that capabilities provide (fields of `Ports`: 'processor', 'spreadsheet', …) which each
   * part's code calls: its functions get those providers, and what they use in turn.
   */
  uses?: { api?: string[]; jobs?: string[]; ports?: string[]; workers?: Record<string, string[]>; privacy?: string[] };
  /** What its timers may touch in AWS: their function's AWS ports and grants. */
  jobNeeds?: AccessNeed[];
}

/** One capability, as shared/app.ts lists it. Every field but `name` is optional. */
export interface Capability {
  /** Its folder under shared/ and the name of its API function (`Fn-<name>`). */
  name: string;
  /** Where its parts live, for the build (required of every capability in shared/app.ts). */
  build?: BuildDeclaration;
  /** Its API operations (docs/architecture.md, "One description of each operation"); they get one Lambda function. */
  operations?: AnyOperation[];
  /** What its API function may touch in AWS (default: the table). */
  needs?: AccessNeed[];
  /**
   * The API function that serves its operations, when not its own (`Fn-<name>`): a provider
   * adapter's routes ride on the function of the capability it implements (the sandbox
   * processor's hosted page on `processor`). Its `needs` join that function's.
   */
  apiFunction?: string;
  /**
   * Settings its API function's code reads (shared/platform/settings.ts): the CDK gives that
   * function exactly these (secrets granted, values as environment), and the local runtime makes
   * each on first start. A function with key-authenticated operations or the `email` need gets
   * the session secret or the platform sender without naming them (shared/composition/function-settings.ts).
   */
  settings?: Setting[];
  /** Settings its job handlers read (the jobs function of its group). */
  jobSettings?: Setting[];
  consumers?: BusConsumer[];
  /** Consumers of other services' events on the default bus. */
  externalConsumers?: ExternalEventConsumer[];
  /** Handlers of the jobs its timers fire, by job type. */
  jobs?: Record<string, JobHandler>;
  queues?: QueueDeclaration[];
  schedules?: RecurringSchedule[];
  /** Local runtime only: routes under /_local that drive this capability in tests. */
  controlRoutes?: ControlRoute[];
  /** Ports it provides, by their field on `Ports`. */
  ports?: Record<string, PortFactory>;
  /** Event types it emits (documented, and subscribable by webhooks when deliverable). */
  eventTypes?: readonly string[];
  /**
   * Its part of a buyer's personal data: what an export shows and what an erasure removes
   * (shared/platform/privacy.ts). Declare its module in `build.privacy` ('./privacy#salesPrivacy'):
   * a function that uses the privacy port bundles that module alone, not the capability.
   */
  privacy?: PrivacyPart[];
}

/** Declares a capability manifest (identity; it gives the object its type). */
export const defineCapability = (capability: Capability): Capability => capability;
