import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { bulkCreateContacts } from '../../shared/audience/bulk';
import { forgetDecodedSnapshots } from '../../shared/audience/contact-facts';
import { rebuildFacts, refreshSmartTag } from '../../shared/segments/service';
import { recountSegments } from '../../shared/segments/counting';
import { updateContact } from '../../shared/audience/service';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';
import { keys } from '../../shared/store/keys';
import { seededRandom } from '../support/seeded-random';

/**
 * Segments over 100,000 contacts on the local runtime and DynamoDB Local: seeding (BatchWriteItem
 * of the items a create writes), the nightly refresh of the account (facts snapshot rebuild with
 * purchase totals, then one smart tag's steps with ~4% of the contacts joining; called step by step
 * as the queue runs them, so the figure is the work, not the queue's polling), and count and preview
 * over HTTP: a saved segment's count from its stored count (cold, warm, and with 200 changes
 * pending), a preview of the same definition from the snapshot (cold: first read of a new
 * snapshot, and warm; median of 5). Beside them the floor: a
 * bare DynamoDB Query of one page (1,000 contacts) of the same contacts. Capacity per count from
 * the runtime's running total.
 */
const SEED_PARALLEL = Number(process.env.BENCH_SEED_PARALLEL ?? 4);

/** Starts the V8 profiler of this process (the runtime runs in it); the answer stops it and returns the profile. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

export async function benchSegments(options: { contacts?: number } = {}) {
  const total = options.contacts ?? Number(process.env.BENCH_SEGMENT_CONTACTS ?? 100_000);
  const ownDynamo = process.env.BENCH_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal();
  const endpoint = process.env.BENCH_DYNAMODB_ENDPOINT ?? ownDynamo!.endpoint;
  // BENCH_SEGMENT_STATE (with BENCH_DYNAMODB_ENDPOINT): a file naming a table and account seeded by
  // an earlier run on the same DynamoDB Local; seeding is skipped when it exists (100,000 contacts
  // take minutes to seed on a loaded machine). Each run adds a segment with a new smart tag.
  const stateFile = process.env.BENCH_DYNAMODB_ENDPOINT ? process.env.BENCH_SEGMENT_STATE : undefined;
  const reused =
    stateFile && existsSync(stateFile)
      ? (JSON.parse(readFileSync(stateFile, 'utf8')) as { tableName: string; accountId: string; testKey: string; contacts: number })
      : undefined;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: endpoint,
    tableName: reused?.tableName ?? `bench_seg_${randomHex(6)}`,
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const progress = (what: string) => process.stderr.write(`segments bench: ${what}\n`);
  const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const out = await fn();
    return [out, performance.now() - started];
  };
  try {
    const account = reused ?? (await call('POST', '/_local/accounts', { plan: 'volume' }));
    const key = account.testKey as string;
    const scope = { accountId: account.accountId as string, mode: 'test' as const };
    const deps = runtime.deps;
    const nowMs = deps.clock.nowMs();
    const tags = ['vip', 'beta', 'course', 'lead', 'fan'];
    const countries = ['DE', 'FR', 'US', 'GB', 'ES', 'IT', null];
    const sources = ['form', 'checkout', 'import', 'api'] as const;
    const r = seededRandom(7);
    const iso = (maxDays: number) => new Date(nowMs - Math.floor(r() * maxDays * 86_400_000)).toISOString();

    const seedStarted = performance.now();
    const [, seedMs] = await timed(async () => {
      if (reused) return;
      // Blocks of 5,000 built in order (the generator is sequential), SEED_PARALLEL blocks written
      // at once (each BatchWriteItem calls of 25, 8 in flight): DynamoDB Local takes more writers.
      const blocks: Parameters<typeof bulkCreateContacts>[2][] = [];
      for (let i = 0; i < total; i += 5000) {
        blocks.push(
          Array.from({ length: Math.min(5000, total - i) }, (_, j) => {
            const bought = r() < 0.4;
            const last = bought ? iso(365) : null;
            return {
              email: `s${String(i + j).padStart(6, '0')}@bench.example.com`,
              name: `Contact ${i + j}`,
              source: sources[(i + j) % sources.length],
              country: countries[Math.floor(r() * countries.length)] ?? null,
              tags: tags.filter(() => r() < 0.2),
              facts: {
                firstPurchaseAt: last,
                lastPurchaseAt: last,
                totalSpentCents: bought ? Math.floor(r() * 50_000) : 0,
                productIds: bought ? [`p${Math.floor(r() * 20)}`] : [],
                lastOpenAt: r() < 0.6 ? iso(60) : null,
                lastClickAt: r() < 0.3 ? iso(60) : null,
              },
            };
          }),
        );
      }
      let next = 0;
      let done = 0;
      await Promise.all(
        Array.from({ length: SEED_PARALLEL }, async () => {
          while (next < blocks.length) {
            const block = blocks[next++]!;
            await bulkCreateContacts(deps, scope, block);
            done += block.length;
            if (done % 20_000 === 0) progress(`seeded ${done} in ${round((performance.now() - seedStarted) / 1000)} s`);
          }
        }),
      );
    });

    if (stateFile && !reused)
      writeFileSync(stateFile, JSON.stringify({ tableName: runtime.tableName, accountId: account.accountId, testKey: key, contacts: total }));
    progress(`seeded ${total} contacts in ${round(seedMs / 1000)} s`);
    const definition = {
      match: 'all',
      groups: [
        {
          match: 'any',
          rules: [
            { type: 'spent', op: 'gt', amountCents: 20_000 },
            { type: 'tag', tag: 'vip' },
          ],
        },
        {
          match: 'all',
          rules: [
            { type: 'engagedWithin', days: 30, event: 'any' },
            { type: 'country', countries: ['DE', 'FR'] },
            { type: 'notBought', productId: 'p3' },
          ],
        },
      ],
    };
    const smartTag = reused ? `engaged-spender-${randomHex(3)}` : 'engaged-spender';
    const segment = await call('POST', '/newsletters/segments', { name: 'Engaged spenders', definition, smartTag }, key);

    // The first snapshot after the import: built from the contacts themselves (what a weekly full
    // rebuild also costs). Then the nightly work of this account and mode, step by step as the
    // queue runs it: the facts rebuild (a compaction of the snapshot and its deltas, with the
    // purchase totals from the sales), then the smart tag's steps until done.
    const [, fullMs] = await timed(() => rebuildFacts(deps, scope, { totals: false, full: true }));
    progress(`first (full) facts build ${round(fullMs / 1000)} s`);
    const beforeNight = { ...deps.store.totals };
    const [, rebuildMs] = await timed(() => rebuildFacts(deps, scope, { totals: true }));
    progress(`nightly facts rebuild ${round(rebuildMs / 1000)} s`);
    let steps = 0;
    const [, tagMs] = await timed(async () => {
      while (!(await refreshSmartTag(deps, scope, segment._id))) steps++;
    });
    progress(`smart tag ${round(tagMs / 1000)} s in ${steps + 1} steps`);
    // The compaction the last smart tag queues: the night's tag writes folded into the snapshot.
    const [, settleMs] = await timed(() => rebuildFacts(deps, scope, { totals: false }));
    progress(`compaction after the tags ${round(settleMs / 1000)} s`);
    // The stored counts, taken a minute behind now (the runtime's clock moved past the compaction).
    await call('POST', '/_local/clock/advance', { seconds: 90 });
    const [stored, recountMs] = await timed(() => recountSegments(deps, scope));
    if (stored < 1) throw new Error('the recount stored no count');
    progress(`recount of the stored segment counts ${round(recountMs / 1000)} s`);
    const nightlyMs = rebuildMs + tagMs + settleMs + recountMs;
    const night = { read: deps.store.totals.read - beforeNight.read, write: deps.store.totals.write - beforeNight.write };
    const refreshed = await call('GET', `/newsletters/segments/${segment._id}`, undefined, key);
    if (!refreshed.smartTagRefreshedAt) throw new Error('the nightly refresh did not finish');

    // Count: cold (as a new container: the decoded snapshot forgotten, the smart-tag steps had
    // decoded it) then warm.
    forgetDecodedSnapshots();
    const capacityBefore = { ...deps.store.totals };
    const [cold, coldMs] = await timed(() => call('GET', `/newsletters/segments/${segment._id}/count`, undefined, key));
    const coldRcu = deps.store.totals.read - capacityBefore.read;
    const countMs: number[] = [];
    let warmRcu = 0;
    for (let i = 0; i < 5; i++) {
      const before = deps.store.totals.read;
      const [, ms] = await timed(() => call('GET', `/newsletters/segments/${segment._id}/count`, undefined, key));
      warmRcu = deps.store.totals.read - before;
      countMs.push(ms);
    }
    // The stored count with pending changes: 200 contacts changed since it was taken.
    const page = await call('GET', '/newsletters/subscribers?limit=100', undefined, key);
    const page2 = await call('GET', `/newsletters/subscribers?limit=100&cursor=${encodeURIComponent(page.nextCursor)}`, undefined, key);
    for (const c of [...page.data, ...page2.data] as { _id: string; country: string | null }[])
      await updateContact(deps, scope, c._id, { country: c.country === 'DE' ? 'US' : 'DE' });
    const pendingMs: number[] = [];
    let pendingRcu = 0;
    for (let i = 0; i < 5; i++) {
      const before = deps.store.totals.read;
      const [, ms] = await timed(() => call('GET', `/newsletters/segments/${segment._id}/count`, undefined, key));
      pendingRcu = deps.store.totals.read - before;
      pendingMs.push(ms);
    }
    // A preview (an unsaved definition) reads the snapshot: cold as a new container, then warm.
    forgetDecodedSnapshots();
    // BENCH_SEGMENT_PROFILE=<file>: a V8 CPU profile of the previews alone (profile-top.ts reads it).
    const profiler = process.env.BENCH_SEGMENT_PROFILE ? await startProfile() : undefined;
    const previewRcuBefore = deps.store.totals.read;
    const [, previewColdMs] = await timed(() => call('POST', '/newsletters/segments/preview', { definition }, key));
    const previewColdRcu = deps.store.totals.read - previewRcuBefore;
    const previewMs: number[] = [];
    for (let i = 0; i < 5; i++) previewMs.push((await timed(() => call('POST', '/newsletters/segments/preview', { definition }, key)))[1]);
    if (profiler) writeFileSync(process.env.BENCH_SEGMENT_PROFILE!, JSON.stringify(await profiler()));
    const tagged = await call('GET', `/newsletters/subscribers?tag=${smartTag}&limit=1`, undefined, key);
    if (!tagged.data.length && cold.count) throw new Error('no contact carries the smart tag after the night');

    // Floor: one bare Query page of the same subscribed contacts (the status index's write shards, in parallel).
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const byStatus = keys.indexShards('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
    const floorMs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const [, ms] = await timed(() =>
        Promise.all(
          byStatus.map((shard) =>
            client.send(
              new QueryCommand({
                TableName: runtime.tableName,
                IndexName: shard.index,
                KeyConditionExpression: 'GSI1PK = :pk',
                ExpressionAttributeValues: { ':pk': { S: shard.pk } },
                Limit: Math.ceil(1000 / byStatus.length),
              }),
            ),
          ),
        ),
      );
      if (i) floorMs.push(ms);
    }
    client.destroy();
    const floor = median(floorMs);
    const warmCount = median(countMs);
    const preview = median(previewMs);
    return {
      contacts: reused?.contacts ?? total,
      seeded: reused ? 'earlier run (BENCH_SEGMENT_STATE)' : 'this run',
      members: cold.count,
      seedSeconds: round(seedMs / 1000),
      nightlyRefreshSeconds: round(nightlyMs / 1000),
      firstFullFactsBuildSeconds: round(fullMs / 1000),
      nightlyFactsRebuildSeconds: round(rebuildMs / 1000),
      nightlySmartTagSeconds: round(tagMs / 1000),
      nightlyCompactionAfterTagsSeconds: round(settleMs / 1000),
      nightlyRecountSeconds: round(recountMs / 1000),
      nightlyGoalSeconds: 60,
      nightlyMet: nightlyMs <= 60_000 ? 'yes' : 'NO',
      nightlyCapacity: { read: round(night.read), write: round(night.write) },
      countColdMs: round(coldMs),
      countWarmMs: round(warmCount),
      countWith200PendingChangesMs: round(median(pendingMs)),
      previewColdMs: round(previewColdMs),
      previewWarmMs: round(preview),
      goalMs: 1000,
      met: Math.max(coldMs, warmCount, preview, previewColdMs) <= 1000 ? 'yes' : 'NO',
      floorQueryPageMs: round(floor),
      countWarmRatioToFloor: round(warmCount / floor, 2),
      previewRatioToFloor: round(preview / floor, 2),
      rcuPerCount: { cold: round(coldRcu), warm: round(warmRcu), with200Pending: round(pendingRcu) },
      rcuPerPreviewCold: round(previewColdRcu),
    };
  } finally {
    await runtime.stop();
    await ownDynamo?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSegments().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
