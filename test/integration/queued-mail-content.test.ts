import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getQueuedMail, queuedMailPut } from '../../shared/email/repository';
import type { QueuedMailRecord } from '../../shared/email/records';
import { objectId } from '../../shared/platform/ids';
import { createTestDeps } from '../support/store';

const html = `<table><tr><td style="padding:24px;font-family:Arial">${'<p>Thank you for your purchase of Launch course.</p>'.repeat(12)}</td></tr></table>`;
const text = 'Thank you for your purchase of Launch course.\n'.repeat(12);

/** A queued mail keeps its html and text compressed; mail a release before queued (gzip) still reads. */
describe('queued mail content', () => {
  it('reads back what was queued (brotli) and what a release before queued (gzip)', async () => {
    const { clock, store } = await createTestDeps();
    const scope = { accountId: 'c'.repeat(24), mode: 'test' as const };
    const at = clock.now().toISOString();
    const mail = (id: string): QueuedMailRecord => ({
      _id: id,
      to: ['b@example.com'],
      subject: 'Your receipt',
      html,
      text,
      preview: null,
      fromName: null,
      replyTo: null,
      source: 'receipt',
      baseUrl: null,
      track: true,
      once: false,
      status: 'queued',
      failureReason: null,
      attempts: 0,
      createdAt: at,
      updatedAt: at,
    });
    const fresh = objectId(clock);
    const op = queuedMailPut(scope, mail(fresh), {}, 1);
    await store.transact([op]);
    const content = ('put' in op ? op.put.content : undefined) as Uint8Array;
    expect([content[0], content[1]]).not.toEqual([0x1f, 0x8b]);
    expect(content.length).toBeLessThan(gzipSync(JSON.stringify({ html, text })).length);
    // The words ride in the compressed content; empty fields are left off the item, read back as null.
    if (!('put' in op)) throw new Error('a put');
    for (const name of ['subject', 'preview', 'fromName', 'replyTo', 'baseUrl', 'failureReason', 'html', 'text', 'once', 'attempts'])
      expect(op.put).not.toHaveProperty(name);
    const { once: _once, ...readBack } = mail(fresh);
    expect(await getQueuedMail(store, scope, fresh)).toMatchObject(readBack);
    expect((await getQueuedMail(store, scope, fresh))?.once).toBeFalsy();
    const named = objectId(clock);
    await store.transact([
      queuedMailPut(scope, { ...mail(named), preview: 'Thanks', fromName: 'Ann', replyTo: 'a@example.com', baseUrl: 'https://x.example.com' }, {}, 1),
    ]);
    expect(await getQueuedMail(store, scope, named)).toMatchObject({
      preview: 'Thanks',
      fromName: 'Ann',
      replyTo: 'a@example.com',
      baseUrl: 'https://x.example.com',
      subject: 'Your receipt',
    });

    const old = objectId(clock);
    const legacy = queuedMailPut(scope, mail(old), {}, 1);
    if (!('put' in legacy)) throw new Error('a put');
    // A release before kept subject and preview as attributes beside gzip content.
    await store.put({ ...legacy.put, subject: 'Your receipt', preview: null, content: gzipSync(JSON.stringify({ html, text })) });
    expect(await getQueuedMail(store, scope, old)).toMatchObject({ _id: old, html, text, subject: 'Your receipt', preview: null });
    expect(await getQueuedMail(store, { ...scope, mode: 'live' }, old)).toBeUndefined();
  });
});
