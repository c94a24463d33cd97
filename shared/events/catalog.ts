/**
 * Every event type a webhook endpoint may subscribe to: the commerce catalog (document 1), the
 * growth-tools events (document 2) and the reserved identity types, which are accepted on
 * subscription and never delivered. Emitting code uses these names; the webhook fan-out listens
 * to DELIVERABLE_EVENT_TYPES only, so an internal event never reaches a seller by accident.
 */
export const COMMERCE_EVENT_TYPES = [
  'order.completed',
  'order.refunded',
  'customer.created',
  'review.created',
  'product.created',
  'product.updated',
  'product.deleted',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'invoice.created',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.upcoming',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.pause',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'credit.granted',
  'credit.balance_changed',
  'credit.auto_refill.succeeded',
  'credit.auto_refill.failed',
  'credit.consent.enabled',
  'credit.consent.disabled',
] as const;

export const GROWTH_EVENT_TYPES = [
  'member.joined',
  'member.left',
  'funnel.lead',
  'subscription.payment_failed',
  'subscription.recovered',
  'subscription.saved',
  'usage.recorded',
  'usage.period_closed',
  'checkout.abandoned',
] as const;

/** Selling digital goods (issue 44): the licence keys issued with paid orders. */
export const DIGITAL_GOODS_EVENT_TYPES = ['license.created', 'license.activated', 'license.revoked'] as const;

/** Listed as subscribable by the spec but reserved: a subscription is accepted, nothing is sent. */
export const RESERVED_EVENT_TYPES = [
  'identity.verification_session.verified',
  'identity.verification_session.processing',
  'identity.verification_session.requires_input',
] as const;

export const DELIVERABLE_EVENT_TYPES: readonly string[] = [...COMMERCE_EVENT_TYPES, ...GROWTH_EVENT_TYPES, ...DIGITAL_GOODS_EVENT_TYPES];
export const KNOWN_EVENT_TYPES: readonly string[] = [...DELIVERABLE_EVENT_TYPES, ...RESERVED_EVENT_TYPES];

export type KnownEventType =
  | (typeof COMMERCE_EVENT_TYPES)[number]
  | (typeof GROWTH_EVENT_TYPES)[number]
  | (typeof DIGITAL_GOODS_EVENT_TYPES)[number]
  | (typeof RESERVED_EVENT_TYPES)[number];

const known = new Set(KNOWN_EVENT_TYPES);
const deliverable = new Set(DELIVERABLE_EVENT_TYPES);

export const isKnownEventType = (type: string): type is KnownEventType => known.has(type);
export const isDeliverableEventType = (type: string) => deliverable.has(type);
