import type { ProductRecord } from '../catalog/records';
import { escapeHtml } from '../platform/html';

export const ATTRIBUTION_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** A lead magnet is free: price 0, or pay what you want from 0. */
export const isFree = (product: Pick<ProductRecord, 'priceCents' | 'payWhatYouWant'>) =>
  product.priceCents === 0 || (product.payWhatYouWant?.enabled === true && product.payWhatYouWant.minimumCents === 0);

/** The offer link of the mails: the offer URL with `discount=<code>` appended when there is a code. */
export function offerLink(offerUrl: string, code: string | null | undefined): string {
  if (!code) return offerUrl;
  const url = new URL(offerUrl);
  url.searchParams.set('discount', code);
  return url.toString();
}

/** Fills a template's placeholders; values are escaped for HTML (the link for an attribute). */
export const fillCopy = (text: string, values: { offerLink: string; leadMagnet: string }, html: boolean) =>
  text
    .replaceAll('{{offer_link}}', html ? escapeHtml(values.offerLink) : values.offerLink)
    .replaceAll('{{lead_magnet}}', html ? escapeHtml(values.leadMagnet) : values.leadMagnet);

export const defaultFunnelName = (leadMagnet: string, offer: string) => `${leadMagnet} → ${offer}`;

/** A purchase counts when the buyer got the lead magnet first and bought within the window. */
export function attributable(capturedAt: string, boughtAt: string, windowDays = ATTRIBUTION_WINDOW_DAYS): boolean {
  // Sale times come from events in whole seconds.
  const captured = Math.floor(Date.parse(capturedAt) / 1000) * 1000;
  const bought = Date.parse(boughtAt);
  return bought >= captured && bought - captured <= windowDays * DAY_MS;
}

export const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);
