import { describe, expect, it } from 'vitest';
import { deferred } from '../../shared/adapters/aws/deferred/port';
import type { QueuePort } from '../../shared/platform/ports';

describe('deferred AWS ports', () => {
  it('import the adapter on the first call, once, and hand every call its arguments', async () => {
    const sent: unknown[] = [];
    let loads = 0;
    const port = deferred<QueuePort>(['send'], async () => {
      loads++;
      return { send: async (...args) => void sent.push(args) };
    });
    expect(loads).toBe(0);
    await Promise.all([port.send('jobs', { a: 1 }), port.send('jobs', { b: 2 }, { delaySeconds: 5 })]);
    await port.send('other', {});
    expect(loads).toBe(1);
    expect(sent).toEqual([
      ['jobs', { a: 1 }],
      ['jobs', { b: 2 }, { delaySeconds: 5 }],
      ['other', {}],
    ]);
  });

  it('answer a failed import to the call that made it, and import again on the next call', async () => {
    let loads = 0;
    const port = deferred<QueuePort>(['send'], async () => {
      loads++;
      if (loads === 1) throw new Error('chunk not readable');
      return { send: async () => undefined };
    });
    await expect(port.send('jobs', {})).rejects.toThrow('chunk not readable');
    await expect(port.send('jobs', {})).resolves.toBeUndefined();
    expect(loads).toBe(2);
  });
});
