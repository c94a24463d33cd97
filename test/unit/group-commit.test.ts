import { describe, expect, it } from 'vitest';
import { groupCommit, perOwner } from '../../shared/store/group-commit';

/** A batch sender whose requests the test answers by hand, recording every batch it was given. */
function manualSender() {
  const batches: number[][] = [];
  const answers: { resolve: (results: string[]) => void; reject: (error: Error) => void }[] = [];
  const send = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push(items);
      answers.push({ resolve: () => resolve(items.map((i) => `done ${i}`)), reject });
    });
  return { send, batches, answers };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('sends callers of the same turn together, gathers the rest while the limit is in flight, and answers each its own result', async () => {
    const { send, batches, answers } = manualSender();
    const write = groupCommit(send, { max: 3, inFlight: 1 });
    const first = [write(1), write(2)];
    await tick();
    expect(batches).toEqual([[1, 2]]);
    // One batch is in flight: these wait, then leave together, at most `max` per request.
    const later = [write(3), write(4), write(5), write(6)];
    await tick();
    expect(batches).toHaveLength(1);
    answers[0]!.resolve([]);
    expect(await Promise.all(first)).toEqual(['done 1', 'done 2']);
    await tick();
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    answers[1]!.resolve([]);
    await tick();
    expect(batches).toEqual([[1, 2], [3, 4, 5], [6]]);
    answers[2]!.resolve([]);
    expect(await Promise.all(later)).toEqual(['done 3', 'done 4', 'done 5', 'done 6']);
  });

  it('rejects every caller of a failed batch and goes on with the next', async () => {
    const { send, batches, answers } = manualSender();
    const write = groupCommit(send, { max: 25, inFlight: 1 });
    const failed = [write(1), write(2)];
    await tick();
    const next = write(3);
    answers[0]!.reject(new Error('ProvisionedThroughputExceeded'));
    await expect(failed[0]).rejects.toThrow('ProvisionedThroughputExceeded');
    await expect(failed[1]).rejects.toThrow('ProvisionedThroughputExceeded');
    await tick();
    expect(batches).toEqual([[1, 2], [3]]);
    answers[1]!.resolve([]);
    expect(await next).toBe('done 3');
  });

  it('keeps one group commit per owner', () => {
    const of = perOwner((owner: { name: string }) => ({ owner: owner.name }));
    const a = { name: 'a' };
    expect(of(a)).toBe(of(a));
    expect(of({ name: 'b' })).not.toBe(of(a));
  });
});
