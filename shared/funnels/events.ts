import type { FunnelRecord, LeadRecord } from './records';

/** `funnel.lead` data: the funnel, the lead with its contact, the order that claimed it. */
export const leadEventData = (funnel: Pick<FunnelRecord, '_id' | 'name' | 'leadMagnetProductId' | 'offerProductId' | 'tag'>, lead: LeadRecord) => ({
  funnel: { id: funnel._id, name: funnel.name, leadMagnetProductId: funnel.leadMagnetProductId, offerProductId: funnel.offerProductId },
  lead: {
    email: lead.email,
    firstName: lead.firstName,
    lastName: lead.lastName,
    subscriberId: lead.subscriberId,
    subscribed: lead.subscribed,
    tag: funnel.tag,
  },
  order: { id: lead.orderId },
  capturedAt: lead.capturedAt,
});
