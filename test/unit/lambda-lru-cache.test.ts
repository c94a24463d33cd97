import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import LRUCache from '../../shared/composition/lambda-lru-cache';

// mnemonist as the SDK resolves it (it is the endpoint cache's dependency, not ours).
const requireFromSdk = createRequire(createRequire(import.meta.url).resolve('@aws-sdk/endpoint-cache'));
const Mnemonist = requireFromSdk('mnemonist/lru-cache') as new (capacity: number) => { get(k: string): unknown; set(k: string, v: unknown): unknown; has(k: string): boolean; peek(k: string): unknown; clear(): void; size: number };

/** A seeded generator, so a failure is repeatable. */
const random = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

describe('the Lambda bundles\' LRU cache', () => {
  it('answers as mnemonist\'s LRUCache over thousands of mixed operations, evictions included', () => {
    for (const capacity of [1, 3, 10]) {
      const next = random(capacity);
      const ours = new LRUCache<string, number>(capacity);
      const theirs = new Mnemonist(capacity);
      for (let i = 0; i < 5000; i++) {
        const key = `k${Math.floor(next() * capacity * 2)}`;
        const op = Math.floor(next() * 5);
        if (op === 0) {
          ours.set(key, i);
          theirs.set(key, i);
        } else if (op === 1) expect(ours.get(key), `get ${key} at ${i}`).toBe(theirs.get(key));
        else if (op === 2) expect(ours.peek(key), `peek ${key} at ${i}`).toBe(theirs.peek(key));
        else if (op === 3) expect(ours.has(key), `has ${key} at ${i}`).toBe(theirs.has(key));
        else if (next() < 0.02) {
          ours.clear();
          theirs.clear();
        }
        expect(ours.size).toBe(theirs.size);
      }
    }
  });
});
