import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';

/**
 * The test run's DynamoDB Locals, lent to one test file at a time and replaced by a fresh one once
 * they have served enough work.
 *
 * Why replace them: DynamoDB Local keeps every stream record in one SQLite table keyed by sequence
 * number, deleted tables' records included (for the stream's 24 hours), and each write to a table
 * with a stream looks up that stream's first record with `MIN(SequenceNumber) ... WHERE StreamID = ?`,
 * which has no index to use: it walks every record written before the table's stream began. So
 * each write on an instance costs more the more was written there by earlier files (measured: a put
 * on a new table took 4.6 ms after 3,000 earlier records, 62 ms after 48,000). In a full run an
 * instance that had served a dozen files answered single puts in 300-800 ms, and the import tests
 * on it hit the SDK's 10 s request timeout. A fresh instance costs about 3.5 s of CPU to start.
 *
 * The JVM runs with the C1 compiler only and the serial collector: on this workload C2 spent more
 * CPU compiling than it saved (5.8 s → 3.6 s to start, 2,000 puts no slower), and the instances
 * share two cores with the tests.
 */
export const TEST_JAVA_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface PoolOptions {
  /** Instances kept (leased or idle, plus those starting). */
  size: number;
  /** An instance is replaced after this many files… */
  maxFiles: number;
  /** …or once its JVM has spent this much CPU beyond its start (a measure of the records written there). */
  maxCpuSeconds: number;
}

interface Slot {
  instance: DynamoDbLocalProcess;
  files: number;
  startCpu: number;
  leased: boolean;
}

/** CPU seconds (user + system) a process has used, from /proc; 0 where there is no /proc. */
export function cpuSecondsOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export class DynamoPool {
  private readonly idle: Slot[] = [];
  private readonly leased = new Map<string, Slot>();
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private readonly starting = new Set<Promise<void>>();
  private stopped = false;
  /** Instances replaced so far (reported when the pool stops). */
  replaced = 0;

  constructor(private readonly options: PoolOptions) {}

  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.size }, () => this.addInstance()));
  }

  /** The endpoint of an idle instance, the least used first; waits while none is idle. */
  async lease(): Promise<string> {
    if (this.stopped) throw new Error('the DynamoDB Local pool is stopped');
    this.idle.sort((a, b) => a.files - b.files);
    const slot = this.idle.shift() ?? (await new Promise<Slot>((resolve) => this.waiting.push(resolve)));
    slot.leased = true;
    this.leased.set(slot.instance.endpoint, slot);
    return slot.instance.endpoint;
  }

  /** Gives an instance back after a file; one that has done enough is replaced by a fresh one. */
  release(endpoint: string): void {
    const slot = this.leased.get(endpoint);
    if (!slot) return;
    this.leased.delete(endpoint);
    slot.leased = false;
    slot.files++;
    const worn = slot.files >= this.options.maxFiles || cpuSecondsOf(slot.instance.pid) - slot.startCpu >= this.options.maxCpuSeconds;
    if (worn && !this.stopped) {
      this.replaced++;
      void slot.instance.stop();
      this.track(this.addInstance());
      return;
    }
    this.offer(slot);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.starting);
    const all = [...this.idle.splice(0), ...this.leased.values()];
    this.leased.clear();
    await Promise.all(all.map((slot) => slot.instance.stop()));
  }

  private offer(slot: Slot): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(slot);
    else this.idle.push(slot);
  }

  private track(started: Promise<void>): void {
    this.starting.add(started);
    void started.finally(() => this.starting.delete(started));
  }

  private async addInstance(): Promise<void> {
    const instance = await startDynamoDbLocal({ javaOptions: TEST_JAVA_OPTIONS });
    if (this.stopped) return void (await instance.stop());
    this.offer({ instance, files: 0, startCpu: cpuSecondsOf(instance.pid), leased: false });
  }
}

/**
 * The pool's lending desk for test workers (other processes): `POST /lease` answers
 * `{ endpoint }` once an instance is free, `POST /release` with `{ endpoint }` gives it back.
 */
export async function servePool(pool: DynamoPool): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const answer = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'POST' && req.url === '/lease') {
        pool.lease().then(
          (endpoint) => answer(200, { endpoint }),
          (error: Error) => answer(503, { error: error.message }),
        );
      } else if (req.method === 'POST' && req.url === '/release') {
        let endpoint: unknown;
        try {
          endpoint = (JSON.parse(body || '{}') as { endpoint?: unknown }).endpoint;
        } catch {
          return answer(400, { error: 'the body is not JSON' });
        }
        if (typeof endpoint !== 'string') return answer(400, { error: 'endpoint is required' });
        pool.release(endpoint);
        answer(200, {});
      } else answer(404, { error: 'not found' });
    });
  });
  // A lease can wait for an instance to start: no server-side timeout cuts it short.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}
