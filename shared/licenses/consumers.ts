import type { BusConsumer } from '../platform/capability';
import { revokeOrderLicenses } from './service';

const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** A full refund or a dispute revokes the order's keys (license.revoked); a redelivery finds them revoked already. */
export const revokeLicensesConsumer: BusConsumer = {
  name: 'licenses-revoke',
  eventTypes: ['order.refunded', 'order.disputed'],
  handle: async (event, deps) => {
    const order = obj(event.data.order);
    if (typeof order.id !== 'string' || order.type !== 'one_time') return;
    if (event.type === 'order.refunded' && order.status !== 'refunded') return;
    await revokeOrderLicenses(deps, { accountId: event.accountId, mode: event.mode }, order.id, event.type === 'order.refunded' ? 'refund' : 'dispute');
  },
};
