import type { Mode } from '../store/keys';
import type { Channel } from './rules';

export const TRACKED_LINK = 'TRACKED_LINK';
export const TRACKED_LINK_DAY = 'TRACKED_LINK_DAY';
export const TRACKED_LINK_SALE = 'TRACKED_LINK_SALE';
export const TRACKED_LINK_VISITOR = 'TRACKED_LINK_VISITOR';
export const LINK_CODE_KIND = 'tracked-link';
export const SALES_CONSUMER = 'links-sales';
export const REFUNDS_CONSUMER = 'links-refunds';

export interface LinkRecord {
  _id: string;
  /** The public short code: `/l/{code}`. */
  code: string;
  channel: Channel;
  targetUrl: string;
  name: string;
  createdAt: string;
  clicks?: number;
  visitors?: number;
  sales?: number;
  revenueCents?: number;
}

/** Scope-free pointer from a public code to its link (the redirect has no caller account). */
export interface LinkCodeRecord {
  accountId: string;
  mode: Mode;
  linkId: string;
}

/** A sale a link brought, counted in its day and on the link until a refund takes it back. */
export interface LinkSaleRecord {
  saleId: string;
  linkId: string;
  channel: Channel;
  day: string;
  revenueCents: number;
  refunded?: boolean;
}

export const clickField = (channel: string) => `c:${channel}`;
export const visitorField = (channel: string) => `v:${channel}`;
export const saleField = (channel: string) => `s:${channel}`;
export const revenueField = (channel: string) => `r:${channel}`;
