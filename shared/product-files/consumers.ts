import type { BusConsumer } from '../platform/capability';
import { revokeOrderDownloads } from './service';

const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/**
 * A full refund or a dispute ends the order's downloads: links already handed out answer 403 and
 * the order shows none. Idempotent (the revocation is a plain set), so a redelivery changes nothing.
 */
export const revokeDownloadsConsumer: BusConsumer = {
  name: 'product-files-revoke',
  eventTypes: ['order.refunded', 'order.disputed'],
  handle: async (event, deps) => {
    const order = obj(event.data.order);
    if (typeof order.id !== 'string' || order.type !== 'one_time') return;
    if (event.type === 'order.refunded' && order.status !== 'refunded') return;
    await revokeOrderDownloads(deps, { accountId: event.accountId, mode: event.mode }, order.id, event.type === 'order.refunded' ? 'refunded' : 'disputed');
  },
};
