import { sellerBrand } from '../account/branding';
import { buyerPage, escapeHtml, formatMoney, type BuyerPage } from '../account/buyer-page';
import type { Deps } from '../platform/context';
import type { BalanceView } from './consent';

/** A browser asking for a page (Accept names text/html); API clients get the JSON view. */
export const wantsHtml = (headers: Record<string, string>) => /\btext\/html\b/.test(headers.accept ?? '');

/** The buyer's balance page: the balance, and auto top-ups with the form that turns them off. Plain HTML, no script. */
export async function balancePage(deps: Pick<Deps, 'store'>, view: BalanceView, input: { baseUrl: string; action: string; notice?: string }): Promise<BuyerPage> {
  const brand = await sellerBrand(deps, view.scope, input.baseUrl);
  const money = (cents: number) => escapeHtml(formatMoney(cents, view.currency));
  const refill = view.autoRefill.enabled
    ? `<p id="auto-refill">Automatic top-ups are <strong>on</strong>${view.autoRefill.topOffCents ? `: when your balance runs out, your saved card is charged ${money(view.autoRefill.topOffCents)} for more credits` : ''}.</p>
<form method="post" action="${escapeHtml(input.action)}"><button type="submit" id="turn-off">Turn off automatic top-ups</button></form>`
    : '<p id="auto-refill">Automatic top-ups are <strong>off</strong>. Your card is not charged when your balance runs out; buy more credits whenever you like.</p>';
  const body = `<section class="card" aria-labelledby="balance-heading">
<h1 id="balance-heading">${escapeHtml(view.productName)}</h1>
${input.notice ? `<div class="ok" role="status" id="notice">${escapeHtml(input.notice)}</div>` : ''}
<p>Balance: <strong id="balance">${money(view.balanceCents)}</strong>${view.paused ? ' <span class="badge" id="paused">Paused</span>' : ''}</p>
${view.paused ? '<p class="muted">Your balance is paused after a top-off could not be charged. Buying more credits starts it again.</p>' : ''}
${refill}
</section>`;
  return buyerPage({ brand, title: view.productName, baseUrl: input.baseUrl, body });
}

/** A link that opens nothing: the same page for a wrong and an unknown link. */
export function missingBalancePage(): BuyerPage {
  return buyerPage({
    brand: { name: 'Credits', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null },
    title: 'Link not found',
    baseUrl: '',
    body: '<section class="card"><h1>Link not found</h1><p role="alert">This link does not open a balance. Check the link in your email.</p></section>',
  });
}
