import * as z from '../platform/zod';
import type { BusConsumer } from '../platform/capability';
import { defineCapability } from '../platform/capability';
import { funnelOperations } from './operations';
import { claimLeadMagnet, FUNNEL_LEAD_EVENT, recordOfferRefund, recordOfferSale, startSequence } from './service';

/** The fields of order.completed / order.refunded this consumer reads. */
const saleEventData = z.object({
  order: z.object({ id: z.string(), productId: z.nullish(z.string()) }),
  amount: z.number(),
  customer: z.object({ email: z.string(), firstName: z.nullish(z.string()), lastName: z.nullish(z.string()) }),
  product: z.nullish(z.object({ id: z.nullish(z.string()) })),
});

const scopeOf = (event: { accountId: string; mode: 'live' | 'test' }) => ({ accountId: event.accountId, mode: event.mode });

/** Lead magnets claimed at checkout become leads; offer sales and refunds feed the stats. */
const funnelSales: BusConsumer = {
  name: 'funnels-sales',
  eventTypes: ['order.completed', 'order.refunded'],
  needs: ['table'],
  handle: async (event, deps) => {
    const parsed = saleEventData.safeParse(event.data);
    if (!parsed.success) return; // not a sale this consumer can attribute (no order or no buyer)
    const data = parsed.data;
    const productId = data.product?.id ?? data.order.productId;
    if (!productId) return;
    if (event.type === 'order.refunded') return recordOfferRefund(deps, scopeOf(event), data.order.id, productId);
    const amountCents = Math.round(data.amount * 100);
    if (amountCents === 0) {
      await claimLeadMagnet(deps, scopeOf(event), {
        productId,
        email: data.customer.email,
        firstName: data.customer.firstName,
        lastName: data.customer.lastName,
        orderId: data.order.id,
        source: 'checkout',
      });
    }
    await recordOfferSale(deps, scopeOf(event), {
      saleId: data.order.id,
      productId,
      email: data.customer.email,
      amountCents,
      at: new Date(event.created * 1000).toISOString(),
    });
  },
};

/**
 * A committed lead starts its sequence. Its mails are queued for the email capability's worker
 * (automations' sendStep), so this consumer needs no mail provider (and does not bundle SESv2).
 */
const funnelLeads: BusConsumer = {
  name: 'funnels-lead-sequence',
  eventTypes: [FUNNEL_LEAD_EVENT],
  needs: ['table', 'scheduler'],
  handle: async (event, deps) => startSequence(deps, scopeOf(event), event.data as never),
};

/** Funnels: a free lead magnet, an email sequence (automation) and a paid offer, with stats. */
export const funnels = defineCapability({
  name: 'funnels',
  build: {
    manifest: { url: import.meta.url, export: 'funnels' },
    operations: './operations#funnelOperations',
  },
  operations: funnelOperations,
  needs: ['table', 'email'],
  consumers: [funnelSales, funnelLeads],
  eventTypes: [FUNNEL_LEAD_EVENT],
});
