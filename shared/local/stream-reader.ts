import { readFile, rename, writeFile } from 'node:fs/promises';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ExpiredIteratorException,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { logger } from '../platform/logger';

export type StreamImage = { eventName?: string; newImage?: Record<string, unknown> };

interface ShardState {
  iterator?: string;
  lastSequence?: string;
  done: boolean;
}

/**
 * Reads DynamoDB Local's stream of the table, as the Lambda event source mapping does in AWS,
 * and hands each batch to the outbox dispatcher. A failed batch is retried from the same
 * position, so no record is skipped. With a checkpoint file, a restart resumes where it stopped.
 */
const IDLE_DELAY_MIN_MS = 40;
/**
 * An idle reader's longest pause. Every GetRecords costs DynamoDB Local a walk of the stream's
 * description: polling every 320 ms kept an idle runtime's DynamoDB Local at about 66 ms of CPU a
 * second, a real share of two cores running three test files (and a bench) at once. Writes through
 * the runtime's store nudge the reader at once and a settle wakes it, so only writes made around
 * the store (another process) wait for this pause.
 */
const IDLE_DELAY_MAX_MS = 1280;
/**
 * After a pass that found records, the next waits this long even if writes nudge it, so a busy
 * stream is read in batches (as an event source mapping polls a shard a few times a second) rather
 * than one GetRecords per write. Webhook burst (test/bench/webhooks.ts): GetRecords per delivery
 * 0.67-0.71 -> 0.18-0.20, deliveries 75.9 / 77.5 -> 87.2 / 91.9 per second, paced p99 still
 * 32-77 ms. A waiter for a complete pass (settle) is never kept waiting by it.
 */
const BUSY_BATCH_MS = 40;
/**
 * How long a pass that found nothing vouches for the stream when this runtime's store wrote
 * nothing since. Kept short because writes made around the store (another process, a bench's bare
 * batches on the same table) do not nudge: a settle within this window of a clean pass does not
 * wait for them (the reader's own polling still reads them).
 */
const CLEAN_FOR_MS = 250;

export class StreamReader {
  private readonly streams: DynamoDBStreamsClient;
  private readonly shards = new Map<string, ShardState>();
  private streamArn?: string;
  private running = false;
  private loop?: Promise<void>;
  private cycleWaiters: { startedAfter: number; resolve: () => void }[] = [];
  private cycle = 0;
  private lastDescribe = 0;

  constructor(
    private readonly dynamo: DynamoDBClient,
    endpoint: string,
    private readonly tableName: string,
    private readonly onBatch: (images: StreamImage[]) => Promise<void>,
    private readonly checkpointFile?: string,
    /** Records the batch needs, judged on their wire form; the others are passed over undecoded. */
    private readonly wanted: (record: { eventName?: string; newImage?: Record<string, unknown> }) => boolean = () => true,
  ) {
    this.streams = new DynamoDBStreamsClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      // DynamoDB Local can stall a GetRecords under load; a timed-out pass is simply retried.
      requestHandler: new NodeHttpHandler({ connectionTimeout: 3000, requestTimeout: 5000, throwOnRequestTimeout: true }),
    });
  }

  async start(): Promise<void> {
    const table = await this.dynamo.send(new DescribeTableCommand({ TableName: this.tableName }));
    this.streamArn = table.Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`Table ${this.tableName} has no stream`);
    if (this.checkpointFile) {
      try {
        const saved = JSON.parse(await readFile(this.checkpointFile, 'utf8')) as Record<string, string>;
        for (const [shardId, lastSequence] of Object.entries(saved)) this.shards.set(shardId, { lastSequence, done: false });
      } catch {
        /* first start */
      }
    }
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.streams.destroy();
  }

  /**
   * Resolves after a complete pass over the stream, begun after this call, found nothing new; or at
   * once when the last pass found nothing, began after the last write (every write of the runtime's
   * store nudges), and ended moments ago. An idle runtime's settle then costs no stream read: the
   * day-by-day scenario tests settle several times per simulated day.
   */
  caughtUp(): Promise<void> {
    if (this.clean && this.clean.writes === this.writes && Date.now() - this.clean.at < CLEAN_FOR_MS) return Promise.resolve();
    const caught = new Promise<void>((resolve) => this.cycleWaiters.push({ startedAfter: this.cycle, resolve }));
    this.wake?.();
    return caught;
  }

  /**
   * Something was just written: an idle reader polls now instead of after its back-off (up to
   * 1.28 s), as a Lambda event source mapping picks a record up within its own short polling.
   */
  nudge(): void {
    this.writes++;
    this.nudged = true;
    if (!this.batching) this.wake?.();
  }

  /** Writes nudged so far, and the last pass that found nothing: the count when it began, and when it ended. */
  private writes = 0;
  private clean?: { writes: number; at: number };

  /** In the pause after a pass that found records (BUSY_BATCH_MS): nudges do not end it. */
  private batching = false;

  /** A write came after the current pass began reading: the next pass must not wait. */
  private nudged = false;

  /** The last pass's failure, while passes keep failing (a settle's timeout message names it). */
  private lastFailure?: string;

  /** The reader's state for a settle's timeout message. */
  describe(): string {
    const waiting = this.cycleWaiters.length ? `${this.cycleWaiters.length} waiting for a clean pass` : 'nobody waiting';
    return `pass ${this.cycle}, ${waiting}${this.lastFailure ? `, last pass failed: ${this.lastFailure}` : ''}`;
  }

  /** Ends the current idle wait at once (someone is waiting for a pass). */
  private wake?: () => void;

  /** An idle stream is polled less and less often (every GetRecords costs DynamoDB Local a stream description), but a waiter wakes it at once. */
  private idleDelay = IDLE_DELAY_MIN_MS;

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private async run() {
    while (this.running) {
      const cycle = ++this.cycle;
      let found = 0;
      this.nudged = false;
      const writesBefore = this.writes;
      try {
        found = await this.pass();
        this.lastFailure = undefined;
      } catch (error) {
        logger.warn('stream pass failed; retrying', { error: error as Error });
        this.lastFailure = (error as Error).message;
        found = 1;
      }
      this.clean = found === 0 ? { writes: writesBefore, at: Date.now() } : undefined;
      if (found === 0) {
        const ready = this.cycleWaiters.filter((w) => w.startedAfter < cycle);
        this.cycleWaiters = this.cycleWaiters.filter((w) => w.startedAfter >= cycle);
        for (const waiter of ready) waiter.resolve();
      }
      this.idleDelay = found || this.nudged ? IDLE_DELAY_MIN_MS : Math.min(this.idleDelay * 2, IDLE_DELAY_MAX_MS);
      this.batching = found > 0 && !this.cycleWaiters.length;
      await this.pause(this.batching ? BUSY_BATCH_MS : this.nudged || this.cycleWaiters.length ? 5 : this.idleDelay);
      this.batching = false;
    }
    for (const waiter of this.cycleWaiters.splice(0)) waiter.resolve();
  }

  /**
   * DescribeStream is the costliest call DynamoDB Local serves (it walks the stream's records, so
   * it slows as a long test run piles them up, and it holds the one SQLite thread every other
   * request waits for). It is made when no open shard is known (at start, or once a shard has
   * ended, which is when a new one appears) and otherwise once a minute as a safety net.
   */
  private async discoverShards() {
    const open = [...this.shards.values()].some((state) => !state.done);
    if (open && Date.now() - this.lastDescribe < 60_000) return;
    if (!open && Date.now() - this.lastDescribe < 1000) return;
    this.lastDescribe = Date.now();
    let exclusiveStart: string | undefined;
    do {
      const out = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStart }));
      for (const shard of out.StreamDescription?.Shards ?? []) {
        if (!this.shards.has(shard.ShardId!)) this.shards.set(shard.ShardId!, { done: false });
      }
      exclusiveStart = out.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStart);
  }

  private async iteratorFor(shardId: string, state: ShardState): Promise<string | undefined> {
    if (state.iterator) return state.iterator;
    const request = (after?: string) =>
      this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: this.streamArn,
          ShardId: shardId,
          ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          SequenceNumber: after,
        }),
      );
    try {
      state.iterator = (await request(state.lastSequence)).ShardIterator;
      return state.iterator;
    } catch (error) {
      // The last position was trimmed: read what the shard still holds rather than skip it.
      // Records seen before come again, and consumers drop them by event id.
      if (!(error instanceof TrimmedDataAccessException) || !state.lastSequence) throw error;
      state.iterator = (await request()).ShardIterator;
      return state.iterator;
    }
  }

  private async pass(): Promise<number> {
    await this.discoverShards();
    let found = 0;
    for (const [shardId, state] of this.shards) {
      if (state.done) continue;
      let iterator: string | undefined;
      try {
        iterator = await this.iteratorFor(shardId, state);
      } catch (error) {
        if (error instanceof TrimmedDataAccessException) {
          state.done = true;
          continue;
        }
        throw error;
      }
      if (!iterator) {
        state.done = true;
        continue;
      }
      let out: GetRecordsCommandOutput;
      try {
        out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
      } catch (error) {
        // DynamoDB Local can refuse a cached iterator as trimmed; a fresh one from the last position reads on.
        if (error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException) {
          state.iterator = undefined;
          continue;
        }
        throw error;
      }
      const records = out.Records ?? [];
      if (records.length) {
        const images = records
          .filter((r) => this.wanted({ eventName: r.eventName, newImage: r.dynamodb?.NewImage }))
          .map((r) => ({ eventName: r.eventName, newImage: r.dynamodb?.NewImage ? decodeImage(r.dynamodb.NewImage) : undefined }));
        // Throws before the position moves, so the same records are read again on the next pass.
        await this.onBatch(images);
        state.lastSequence = records[records.length - 1]!.dynamodb?.SequenceNumber;
        found += records.length;
        await this.saveCheckpoint();
      }
      state.iterator = out.NextShardIterator;
      if (!out.NextShardIterator) state.done = true;
    }
    return found;
  }

  private async saveCheckpoint() {
    if (!this.checkpointFile) return;
    const data: Record<string, string> = {};
    for (const [shardId, state] of this.shards) if (state.lastSequence) data[shardId] = state.lastSequence;
    // Written aside and renamed, so a kill mid-write never leaves a torn checkpoint.
    await writeFile(`${this.checkpointFile}.tmp`, JSON.stringify(data));
    await rename(`${this.checkpointFile}.tmp`, this.checkpointFile);
  }
}

/**
 * DynamoDB Local's stream renders an empty map attribute as `{}` with no type key, which
 * unmarshall refuses (and the pass would retry forever). Such a value can only be an empty map.
 */
function repairEmptyMaps(image: Record<string, unknown>): Record<string, unknown> {
  const fix = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const v = value as Record<string, unknown>;
    if (Object.keys(v).length === 0) return { M: {} };
    if (v.M && typeof v.M === 'object') return { M: Object.fromEntries(Object.entries(v.M as Record<string, unknown>).map(([k, x]) => [k, fix(x)])) };
    if (Array.isArray(v.L)) return { L: v.L.map(fix) };
    return v;
  };
  return Object.fromEntries(Object.entries(image).map(([k, x]) => [k, fix(x)]));
}

/** A record that cannot be decoded is logged and passed over: retrying it would stall the stream. */
function decodeImage(image: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return unmarshall(repairEmptyMaps(image) as Record<string, AttributeValue>);
  } catch (error) {
    logger.error('stream record could not be decoded; skipped', { error: error as Error });
    return undefined;
  }
}
