import * as z from 'zod';
import { paymentClaimFor } from '../../checkout/service';
import type { Deps } from '../../platform/context';
import { checkoutPage, notFoundPage } from './page';
import { ProcessorError } from '../../processor/port';
import type { SandboxProcessor } from './sandbox';

const payForm = z.object({
  email: z.coerce.string().trim().pipe(z.string().email('Enter a valid email address')),
  // The form decoder turns digit-only fields into numbers; a card number is text.
  firstName: z.coerce.string().trim().max(100).optional(),
  lastName: z.coerce.string().trim().max(100).optional(),
  country: z.coerce.string().trim().max(2, 'Country is a 2-letter code').optional(),
  cardNumber: z.coerce.string().trim().max(40).optional(),
  saveCard: z.union([z.boolean(), z.string()]).optional(),
});

export type HostedCheckoutOutcome = { kind: 'redirect'; location: string } | { kind: 'page'; status: number; html: string };

/**
 * A buyer's form post on the hosted checkout page: pays (or completes a free checkout) and sends
 * the buyer on to the success address, or shows the page again with the reason.
 */
export async function submitHostedCheckout(deps: Pick<Deps, 'store'>, sandbox: SandboxProcessor, checkoutId: string, body: Record<string, unknown>): Promise<HostedCheckoutOutcome> {
  const checkout = await sandbox.getCheckout(checkoutId);
  if (!checkout) return { kind: 'page', status: 404, html: notFoundPage() };
  const values = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
  const again = (status: number, error: string): HostedCheckoutOutcome => ({ kind: 'page', status, html: checkoutPage(checkout, { error, values }) });
  const form = payForm.safeParse(body);
  if (!form.success) return again(400, form.error.issues[0]!.message);
  const buyer = { email: form.data.email, firstName: form.data.firstName || undefined, lastName: form.data.lastName || undefined, country: form.data.country?.toUpperCase() || undefined };
  const claim = checkout.status === 'open' ? await paymentClaimFor(deps, checkout.scope, checkout.sessionId) : undefined;
  try {
    const result =
      checkout.amountCents === 0
        ? await sandbox.completeFreeCheckout(checkout.id, buyer, claim)
        : await sandbox.payCheckout(checkout.id, { buyer, cardNumber: form.data.cardNumber, saveCard: form.data.saveCard === true || form.data.saveCard === 'true' || form.data.saveCard === 'on', claim });
    if (result.status === 'declined') return again(402, result.failureMessage ?? 'Your card was declined.');
    return { kind: 'redirect', location: result.redirectUrl ?? checkout.successUrl };
  } catch (error) {
    if (error instanceof ProcessorError) return again(error.reason ? 409 : 400, error.message);
    throw error;
  }
}
