import type { PaymentMethod } from '../processor/port';

export const SUBSCRIBER = 'SUBSCRIBER';

export type SubscriberStatus = 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled';

/** One buyer's single subscription to one offer. */
export interface ProcessorSync {
  action: 'cancel_at_period_end' | 'cancel_now' | 'resume';
  recordedAt: string;
}

export interface SubscriberRecord {
  _id: string;
  /** The subscription offer. */
  subscriptionId: string;
  customerId: string;
  buyerEmail: string;
  firstName: string | null;
  lastName: string | null;
  country: string | null;
  status: SubscriberStatus;
  active: boolean;
  cancelAtPeriodEnd: boolean;
  paused: boolean;
  membershipId: string | null;
  planId: string | null;
  paymentMethod: PaymentMethod | null;
  clientReferenceId: string | null;
  metadata: Record<string, unknown>;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  trialEnd: string | null;
  failureMessage: string | null;
  /** Invoice of the charge being retried while past due. */
  openInvoiceId: string | null;
  portalToken: string;
  portalUrl: string;
  /**
   * A buyer's portal change the processor has not confirmed yet: recorded with the change, then
   * retried from its event by the processor-sync consumer until the processor accepts it.
   */
  processorSync?: ProcessorSync | null;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
  canceledAt: string | null;
}
