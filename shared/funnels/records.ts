export const FUNNEL = 'FUNNEL';
export const LEAD = 'LEAD';
export const PURCHASE = 'PURCHASE';

export type FunnelStatus = 'draft' | 'active' | 'paused';

export interface FunnelRecord {
  _id: string;
  name: string;
  templateId: string;
  leadMagnetProductId: string;
  offerProductId: string;
  offerUrl: string;
  discountId: string | null;
  discountCode: string | null;
  status: FunnelStatus;
  automationId: string;
  emailPostIds: string[];
  /** Tag every lead's contact gets. */
  tag: string;
  /** Counters (ADD), so stats never read every lead. */
  leads: number;
  purchases: number;
  buyers: number;
  revenueCents: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
}

export interface LeadRecord {
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscriberId: string;
  subscribed: boolean;
  orderId: string | null;
  capturedAt: string;
}

export interface PurchaseRecord {
  saleId: string;
  email: string;
  amountCents: number;
  at: string;
  refunded: boolean;
}
