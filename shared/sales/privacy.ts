import type { Deps } from '../platform/context';
import type { PrivacyPart, PrivacySubject } from '../platform/privacy';
import { onConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { SaleRecord } from './records';
import { customerDeletes, customerSalesPage, getCustomer, getSale, receiptEmailErasure, receiptSaleId, saleUpdate } from './repository';
import { receiptErasure } from './transaction';

const PAGE = 100;
/** Sales changed at once while erasing: small writes, kept well under the table's burst. */
const CONCURRENCY = 8;

/**
 * A customer's sales, a page at a time: the privacy parts of capabilities that keep records per
 * order (survey answers, reviews, licence keys, downloads) find theirs through it.
 */
export async function* salesOf(deps: Pick<Deps, 'store'>, scope: Scope, customerId: string): AsyncIterable<SaleRecord[]> {
  let cursor: string | undefined;
  do {
    const page = await customerSalesPage(deps.store, scope, customerId, cursor, PAGE);
    if (page.items.length) yield page.items;
    cursor = page.cursor;
  } while (cursor);
}

/**
 * What a sale keeps after its buyer is erased: the books (amounts, currency, dates, product,
 * lines, discount, country, status, refunds, processor ids) under the customer id; the email,
 * names, card and free-form metadata go.
 */
export const erasedSaleFields = (at: string): Partial<SaleRecord> & { erasedAt: string } => ({
  buyerEmail: '',
  firstName: null,
  lastName: null,
  paymentMethod: null,
  metadata: {},
  erasedAt: at,
});

async function eraseSale(deps: Deps, scope: Scope, sale: SaleRecord, at: string): Promise<void> {
  if ((sale as SaleRecord & { erasedAt?: string }).erasedAt) return;
  // A survey answer in the buyer's own words ("other: ...") is on the sale as its label; the
  // chosen option stays, counted in the report.
  const attribution = sale.attribution?.optionId === 'other' ? { attribution: { ...sale.attribution, label: 'Other' } } : {};
  // A sale an earlier release wrote is moved to its write shard first, where the update looks.
  await getSale(deps.store, scope, sale._id);
  const ops = [saleUpdate(scope, sale._id, { ...erasedSaleFields(at), ...attribution })];
  // The sale's locator keeps its receipt (this release), even when the token is off the sale (a
  // renewal); a token of a release before names a receipt item of its own.
  const receipts = [receiptEmailErasure(sale._id)];
  if (sale.receiptToken && !receiptSaleId(sale.receiptToken)) receipts.push(receiptErasure(sale.receiptToken));
  // A receipt written before receipts were kept (or already gone) must not stop the erasure.
  await onConditionFailed(deps.store.transact([...ops, ...receipts]), async () => {
    await deps.store.transact(ops);
    for (const receipt of receipts) await onConditionFailed(deps.store.transact([receipt]), () => undefined);
  });
}

/** The customer record: resolved first, erased inside the request so no list shows it. */
const customerPart: PrivacyPart = {
  name: 'customer',
  immediate: true,
  async subject(deps, scope, customerId) {
    const customer = await getCustomer(deps.store, scope, customerId);
    return customer ? { customerId, email: customer.buyerEmail } : undefined;
  },
  async *export(deps, scope, subject: PrivacySubject) {
    const customer = await getCustomer(deps.store, scope, subject.customerId);
    if (customer) yield [customer];
  },
  async erase(deps, scope, subject) {
    const customer = await getCustomer(deps.store, scope, subject.customerId);
    if (customer) await deps.store.transact(customerDeletes(scope, customer));
  },
};

/** Orders and payments (every sale of the customer), page by page. */
const ordersPart: PrivacyPart = {
  name: 'orders',
  export: (deps, scope, subject) => salesOf(deps, scope, subject.customerId),
  async erase(deps, scope, subject) {
    const at = deps.clock.now().toISOString();
    for await (const page of salesOf(deps, scope, subject.customerId)) {
      for (let i = 0; i < page.length; i += CONCURRENCY) {
        await Promise.all(page.slice(i, i + CONCURRENCY).map((sale) => eraseSale(deps, scope, sale, at)));
      }
    }
  },
};

export const salesPrivacy: PrivacyPart[] = [customerPart, ordersPart];
