import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import { pastSalesPage } from '../sales/lookups';

const SALES_PAGE = 1_000;

/**
 * Purchase totals rebuilt from the sales, by lower-cased buyer email: what each buyer paid in the
 * account currency, net of refunds (the sale-facts consumer only ever adds; refunds and disputes
 * come off here, nightly). Disputed sales count nothing. Reads every sale of the scope in pages:
 * the nightly job's work, never a request's.
 */
export async function purchaseTotals(deps: Deps, scope: Scope): Promise<Map<string, number>> {
  const account = await getAccount(deps.store, scope.accountId);
  const currency = account?.currency.toUpperCase();
  const totals = new Map<string, number>();
  // Below every object id (a key condition cannot compare with an empty string).
  let after = '0';
  for (;;) {
    const page = await pastSalesPage(deps, scope, after, SALES_PAGE);
    for (const sale of page) {
      const email = sale.buyerEmail.trim().toLowerCase();
      const counts = sale.status !== 'disputed' && (!currency || sale.currency.toUpperCase() === currency);
      totals.set(email, (totals.get(email) ?? 0) + (counts ? Math.max(0, sale.amountCents - sale.refundedCents) : 0));
    }
    if (page.length < SALES_PAGE) return totals;
    after = page[page.length - 1]!._id;
  }
}
