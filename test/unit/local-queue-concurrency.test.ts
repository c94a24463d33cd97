import { describe, expect, it } from 'vitest';
import { LocalQueue } from '../../shared/adapters/local/queue';
import { WorkTracker } from '../../shared/adapters/local/work-tracker';

describe('local queue', () => {
  it('runs at most maxConcurrent messages of a queue at once, and every message in the end', async () => {
    const work = new WorkTracker();
    let running = 0;
    let most = 0;
    const handled: number[] = [];
    const queue = new LocalQueue(
      () =>
        ({
          webhooks: async (message: Record<string, unknown>) => {
            running++;
            most = Math.max(most, running);
            await new Promise((r) => setTimeout(r, 10));
            running--;
            handled.push(message.n as number);
          },
        }) as never,
      work,
      undefined,
      { maxConcurrent: 3 },
    );
    for (let n = 0; n < 20; n++) await queue.send('webhooks', { n });
    await work.idle();
    expect(most).toBe(3);
    expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });
});
