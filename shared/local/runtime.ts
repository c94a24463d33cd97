import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { APP } from '../app';
import type { App } from '../composition/assemble';
import { allSettings, secretsOf } from '../composition/function-settings';
import { localAdapters, type LocalAdapters } from '../composition/local-deps';
import { createAccount, createApiKey } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { provisionLocalSender } from '../email/settings';
import { OffsetClock } from '../platform/clock';
import { loadConfig, type Config } from '../platform/config';
import { ApiError, isApiError } from '../platform/errors';
import { createApiHandler, type ApiEvent, type ApiResult } from '../platform/http/api-handler';
import { renderError } from '../platform/http/render';
import { Router } from '../platform/http/router';
import { preflightRouteKey, preflightRoutes } from '../platform/cors';
import { randomHex } from '../platform/ids';
import { withinDeadline } from './deadline';
import { logger } from '../platform/logger';
import { routeKey } from '../platform/operation';
import type { SecretSetting } from '../platform/settings';
import { dispatchStreamImages } from '../events/dispatcher';
import { documentClient } from '../store/client';
import { Store } from '../store/store';
import { requestTarget, toApiGatewayEvent } from './apigw';
import type { ControlRoute } from '../platform/capability';
import { controlRoutes, type LocalRuntimeInternals } from './control';
import { DASHBOARD_DIST, isDashboardPath, serveDashboard } from './dashboard-static';
import { portIsFree, startDynamoDbLocal, type DynamoDbLocalProcess } from './dynamodb';
import { ensureTable } from './dynamodb-table';
import { StreamReader, type StreamImage } from './stream-reader';
import { eventFromItem, mayCarryEvent, OUTBOX_ENTITY, type DomainEvent } from '../platform/events';

export interface LocalRuntimeOptions {
  port?: number;
  host?: string;
  /** Where data persists; ignored with `memory`. */
  dataDir?: string;
  memory?: boolean;
  /** Use a running DynamoDB (Local) instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  allowLoopbackWebhooks?: boolean;
  /** Create the demo account and print its keys. */
  demo?: boolean;
  /** Extra configuration (environment variable names). */
  env?: Record<string, string>;
  /** Delete the table on stop (tests share one DynamoDB Local and should leave it lean). */
  dropTableOnStop?: boolean;
  /** The application to serve (default: shared/app.ts). */
  app?: App;
  /** The built dashboard served at /dashboard (default: dashboard/dist of the repository). */
  dashboardDir?: string;
}

export interface DemoKeys {
  accountId: string;
  liveKey: string;
  testKey: string;
}

export interface LocalRuntime extends LocalRuntimeInternals {
  url: string;
  port: number;
  tableName: string;
  config: Config;
  demo?: DemoKeys;
  /** A secret setting's value as this runtime uses it (generated, or the environment's). */
  secret(setting: SecretSetting): Promise<string>;
  stop(): Promise<void>;
}

type Handler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

const SETTLE_DEADLINE_MS = 120_000;
/** Timers one clock advance fires at most. */
const ADVANCE_MAX_TIMERS = 10_000;

const lambdaBase = (group: string): Context =>
  ({
    functionName: `local-${group}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${group}`,
    memoryLimitInMB: '512',
    awsRequestId: '',
    logGroupName: `/aws/lambda/local-${group}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

// One base per group: a request copies it with its own id, instead of making its strings and
// functions anew (a visible share of a local read's CPU, docs/performance.md).
const lambdaBases = new Map<string, Context>();
const lambdaContext = (group: string, requestId: string): Context => {
  let base = lambdaBases.get(group);
  if (!base) {
    base = lambdaBase(group);
    lambdaBases.set(group, base);
  }
  return { ...base, awsRequestId: requestId };
};

const NO_BODY = Buffer.alloc(0);

async function readBody(request: IncomingMessage, limit = 12 * 1024 * 1024): Promise<Buffer> {
  // A request without a body (most reads) skips the stream's async iteration: it was a visible
  // share of a read's CPU under load (docs/performance.md, issue 43).
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return NO_BODY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, result: ApiResult) {
  const headers = { ...(result.headers ?? {}) } as Record<string, string>;
  const body = result.body ? (result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8')) : Buffer.alloc(0);
  headers['content-length'] = String(body.length);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(body);
}

/**
 * The whole service on one machine: DynamoDB Local, the same Lambda handlers behind an HTTP
 * server that builds API Gateway events, the stream-fed outbox dispatcher, the in-process bus,
 * queues and scheduler, and the control API under /_local.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = options.memory ? undefined : resolve(options.dataDir ?? '.data');
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const tableName = options.tableName ?? 'creator-commerce';
  const wantedPort = options.port ?? 3000;
  // Checked before anything starts, so a clash leaves nothing running behind.
  if (wantedPort !== 0 && !(await portIsFree(wantedPort, host))) throw new Error(`Port ${wantedPort} is in use: start with PORT=<another port> npm start`);

  let dynamoProcess: DynamoDbLocalProcess | undefined;
  let endpoint = options.dynamoEndpoint;
  if (!endpoint) {
    // DynamoDB Local refuses a database folder that does not exist yet.
    if (dataDir) await mkdir(join(dataDir, 'dynamodb'), { recursive: true });
    dynamoProcess = await startDynamoDbLocal({
      port: process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : undefined,
      dbPath: dataDir ? join(dataDir, 'dynamodb') : undefined,
    });
    endpoint = dynamoProcess.endpoint;
  }

  let baseUrl = '';
  const config = loadConfig({
    ...process.env,
    STAGE: 'local',
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    WEBHOOK_ALLOW_LOOPBACK: options.allowLoopbackWebhooks || process.env.WEBHOOK_ALLOW_LOOPBACK === '1' ? '1' : '0',
    ...(options.env ?? {}),
  });
  const rawClient = new DynamoDBClient({ endpoint, region: config.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(rawClient, tableName);
  const store = new Store(documentClient({ region: config.AWS_REGION, endpoint }), tableName);
  // The clock's offset persists with the data, so timers due at an advanced time still fire after a restart.
  const clockFile = dataDir ? join(dataDir, 'clock.json') : undefined;
  const clock = new OffsetClock(
    clockFile
      ? await readFile(clockFile, 'utf8').then(
          (t) => Number(JSON.parse(t).offsetMs) || 0,
          () => 0,
        )
      : 0,
  );
  const saveClock = async () => {
    if (!clockFile) return;
    await writeFile(`${clockFile}.tmp`, JSON.stringify({ offsetMs: clock.offset }));
    await rename(`${clockFile}.tmp`, clockFile);
  };
  const app = options.app ?? APP;
  const environment = { ...process.env, ...(options.env ?? {}) };
  const adapters: LocalAdapters = localAdapters(app, { store, clock, config: { ...config }, dataDir, baseUrl: () => baseUrl, environment });
  const deps = adapters.deps;
  // Every secret a function of the app is given in AWS exists before the first request: generated
  // into the data folder on first start (for the process with --memory), unless the environment
  // sets it. So a plain `npm start` has every feature on, and the admin CLI finds them.
  for (const setting of secretsOf(allSettings(app))) await deps.ports.secrets.get(setting);

  // Events carried by entity items (not in the outbox partition), kept for `GET /_local/events`.
  const carriedEvents = new Map<string, DomainEvent>();
  const keepCarried = (images: StreamImage[]) => {
    for (const image of images) {
      if (image.eventName !== 'INSERT' || !image.newImage || image.newImage.entity === OUTBOX_ENTITY) continue;
      const event = eventFromItem(image.newImage);
      if (event) carriedEvents.set(event.id, event);
    }
  };
  const stream = new StreamReader(
    rawClient,
    endpoint,
    tableName,
    (images) => adapters.work.run('stream batch', () => dispatchStreamImages(adapters.bus, images).then(() => keepCarried(images))),
    dataDir ? join(dataDir, 'stream-checkpoint.json') : undefined,
    mayCarryEvent,
  );
  await stream.start();
  store.afterWrite = () => stream.nudge();
  await adapters.armRecurringSchedules();

  // Where a settle is, for its timeout message.
  let phase = 'start';
  // Fires due timers one at a time, letting each one's effects settle before the next.
  let firing: Promise<number> | undefined;
  const fireDueTimers = (): Promise<number> => {
    firing ??= (async () => {
      let fired = 0;
      try {
        for (let timer = await adapters.scheduler.nextDue(); timer; timer = await adapters.scheduler.nextDue()) {
          // The job is on disk before the timer is gone, so a crash between the two fires it again
          // (at least once, as EventBridge Scheduler) rather than never.
          phase = `timer ${timer.name}`;
          const held = await adapters.queue.hold('jobs', timer.job as unknown as Record<string, unknown>, `timer~${timer.name}~${timer.dueAtMs}`);
          if (await adapters.scheduler.claim(timer)) {
            held.release();
            fired++;
            await quiet();
          } else await held.discard();
        }
      } finally {
        firing = undefined;
      }
      return fired;
    })();
    return firing;
  };

  const quiet = async () => {
    for (let round = 0; round < 1000; round++) {
      phase = `quiet round ${round}: reading the stream`;
      await stream.caughtUp();
      if (adapters.work.busy) {
        phase = `quiet round ${round}: waiting for work`;
        await adapters.work.idle();
        continue;
      }
      phase = `quiet round ${round}: reading the stream again`;
      await stream.caughtUp();
      if (!adapters.work.busy) return;
    }
  };

  const settleOnce = async () => {
    for (let round = 0; round < 100; round++) {
      await quiet();
      if ((await fireDueTimers()) === 0) {
        await quiet();
        if (!(await adapters.scheduler.nextDue())) return;
      }
    }
  };
  // A settle that cannot finish says so, and what it waits for, instead of hanging its caller.
  const settle = () =>
    withinDeadline(settleOnce(), SETTLE_DEADLINE_MS, () => {
      const inFlight = `in flight: ${adapters.work.describe()}; stream: ${stream.describe()}; dead letters ${adapters.queue.deadLetters.length}`;
      return new ApiError(504, `Not idle after ${SETTLE_DEADLINE_MS / 1000} s: at ${phase}; ${inFlight}`);
    });

  const timerLoop = setInterval(() => {
    if (!firing) fireDueTimers().catch((error) => logger.error('timer loop failed', { error: error as Error }));
  }, 500);

  const router = new Router<{ group: string; handler: Handler; routeKey: string } | { control: ControlRoute<LocalRuntimeInternals> }>();
  for (const group of app.groups) {
    const handler = createApiHandler(group.operations, { deps: () => deps }) as unknown as Handler;
    for (const operation of group.operations) router.add(operation.method, operation.path, { group: group.name, handler, routeKey: routeKey(operation) });
    // The same preflight routes the CDK stack creates (platform/cors.ts): only declared paths.
    for (const route of preflightRoutes(group.operations))
      router.add('OPTIONS', route.path, { group: group.name, handler, routeKey: preflightRouteKey(route.path) });
  }
  for (const route of controlRoutes(app)) router.add(route.method, route.path, { control: route });

  // Each timer fires with the clock at its due time, in order, as it would in real life; work that
  // was already under way settles first, at the time it started.
  const advance = async (seconds: number): Promise<Date> => {
    await settle();
    const target = clock.nowMs() + Math.round(seconds * 1000);
    let step = 0;
    const fired = new Map<string, number>();
    for (let next = await adapters.scheduler.nextDue(target); next && step < ADVANCE_MAX_TIMERS; step++, next = await adapters.scheduler.nextDue(target)) {
      fired.set(next.name, (fired.get(next.name) ?? 0) + 1);
      clock.moveTo(next.dueAtMs);
      await saveClock();
      await settle();
    }
    // A timer that re-arms itself every few seconds would take the whole advance: say which.
    if (step === ADVANCE_MAX_TIMERS) {
      const busiest = [...fired].sort((a, b) => b[1] - a[1]).slice(0, 3);
      logger.warn('clock advance stopped after its timer limit; the rest of the span was skipped', { limit: ADVANCE_MAX_TIMERS, busiest });
    }
    clock.moveTo(target);
    await saveClock();
    await settle();
    return clock.now();
  };

  const handle: LocalRuntimeInternals = { deps, adapters, clock, baseUrl: '', settle, advance, carriedEvents };

  const dashboardDir = resolve(options.dashboardDir ?? DASHBOARD_DIST);
  const server: Server = createServer(async (request, response) => {
    const url = requestTarget(request.url);
    try {
      const body = await readBody(request);
      const match = router.match(request.method ?? 'GET', url.pathname);
      if (!match && isDashboardPath(url.pathname)) {
        const answer = await serveDashboard(new URL(request.url ?? '/', baseUrl).pathname, request.method ?? 'GET', dashboardDir, baseUrl);
        response.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
        response.end(answer.body);
        return;
      }
      if (!match) throw new ApiError(404, `No route ${request.method} ${url.pathname}`);
      if ('methodNotAllowed' in match) throw new ApiError(405, `Method ${request.method} not allowed on ${url.pathname}`);
      const target = match.route;
      if ('control' in target) {
        let parsed: Record<string, unknown> = {};
        if (body.length && !target.control.rawBody) {
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            throw new ApiError(400, 'Body is not valid JSON');
          }
        }
        const result = await target.control.handle(handle, { params: match.params, query: Object.fromEntries(url.searchParams), body: parsed, raw: body });
        const raw = typeof result.body === 'string' && result.headers?.['content-type'] !== undefined;
        send(response, {
          statusCode: result.status,
          headers: { 'content-type': 'application/json', ...(result.headers ?? {}) },
          body: result.body === undefined ? '' : raw ? (result.body as string) : JSON.stringify(result.body),
        });
        return;
      }
      const event = toApiGatewayEvent(request, body, { routeKey: target.routeKey, params: match.params }, url, clock.nowMs());
      const result = await target.handler(event, lambdaContext(target.group, event.requestContext.requestId));
      send(response, result);
    } catch (error) {
      if (!isApiError(error)) logger.error('local runtime request failed', { error: error as Error });
      // Answering must never throw out of this callback: the request would hang until the socket
      // times out and the client sees a reset instead of a status.
      try {
        if (response.headersSent) response.destroy();
        else send(response, renderError(error, randomHex(12)));
      } catch (sendError) {
        logger.error('could not answer', { error: sendError as Error });
        response.destroy();
      }
    }
  });
  // Idle keep-alive sockets outlive a client's reuse window (undici keeps them ~4 s), so a busy
  // machine never closes one just as a client sends on it (ECONNRESET on a reused socket).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new Error(`Port ${wantedPort} is in use: start with PORT=<another port> npm start`) : error),
      );
      server.listen(wantedPort, host, () => resolveListen());
    });
  } catch (error) {
    clearInterval(timerLoop);
    await stream.stop();
    rawClient.destroy();
    await dynamoProcess?.stop();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host}:${port}`;
  handle.baseUrl = baseUrl;
  deps.config = { ...deps.config, PUBLIC_BASE_URL: config.PUBLIC_BASE_URL ?? baseUrl, API_URL: config.API_URL ?? baseUrl };

  // Work a killed run of this data folder accepted and had not finished starts again now that
  // the server (the processor's notification target) listens.
  const resumed = await adapters.resume();
  if (resumed.messages || resumed.deliveries) logger.info('resumed pending work', resumed);

  let demo: DemoKeys | undefined;
  if (options.demo) demo = await ensureDemoAccount(deps, clock, dataDir);
  // Lets `npm run admin -- --local ...` find this runtime's table while it runs.
  if (dataDir) await writeFile(join(dataDir, 'runtime.json'), JSON.stringify({ dynamoEndpoint: endpoint, tableName, url: baseUrl }, null, 2));

  return {
    ...handle,
    url: baseUrl,
    port,
    tableName,
    config: deps.config,
    demo,
    secret: (setting) => deps.ports.secrets.get(setting),
    async stop() {
      clearInterval(timerLoop);
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await stream.stop();
      if (options.dropTableOnStop) await rawClient.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      rawClient.destroy();
      await dynamoProcess?.stop();
    },
  };
}

/** The demo account is made on first start; its keys are kept under .data/ to print them again. */
async function ensureDemoAccount(deps: Deps, clock: OffsetClock, dataDir: string | undefined): Promise<DemoKeys> {
  const store = deps.store;
  const file = dataDir ? join(dataDir, 'demo-account.json') : undefined;
  if (file) {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as DemoKeys;
    } catch {
      /* first start */
    }
  }
  const account = await createAccount(store, clock, { email: 'demo@example.com', name: 'Demo Creator', plan: 'volume' });
  await provisionLocalSender(deps, account.accountId);
  const live = await createApiKey(store, clock, account.accountId, 'live');
  const test = await createApiKey(store, clock, account.accountId, 'test');
  const demo = { accountId: account.accountId, liveKey: live.key, testKey: test.key };
  if (file) await writeFile(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}
