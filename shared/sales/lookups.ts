import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import type { CustomerRecord, SaleAttribution, SaleRecord } from './records';
import { findCustomerByEmail, getCustomer, getSale, locateSale, receiptOfToken, saleUpdate, salesPage } from './repository';

// Reads other capabilities use (receipts, survey, segments, sheets, credits, usage), apart from
// service.ts: nothing here reaches the payment processor, so a function that only reads sales
// does not bundle the processor and Stripe (functions get the processor port only where their code names it).

/** A customer of this tenant and mode by id. */
export const findCustomer = (deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<CustomerRecord | undefined> => getCustomer(deps.store, scope, id);

/** A customer by email (normalised), read consistently. */
export const findCustomerOfEmail = (deps: Pick<Deps, 'store'>, scope: Scope, email: string): Promise<CustomerRecord | undefined> =>
  findCustomerByEmail(deps.store, scope, email);

/** A sale found by its id alone, with its tenant (scope-free locator): local control API only. */
export async function locateSaleById(deps: Pick<Deps, 'store'>, saleId: string): Promise<{ scope: Scope; sale: SaleRecord } | undefined> {
  const scope = await locateSale(deps.store, saleId);
  const sale = scope ? await getSale(deps.store, scope, saleId) : undefined;
  return scope && sale ? { scope, sale } : undefined;
}

/**
 * What a receipt token of this release permits (the sale, its tenant, product and buyer), kept
 * on the sale's locator: reviews, the survey and invoices go by it. Undefined for a token of a
 * release before (those have their own item, storefront/reviews) and for a wrong secret.
 */
export async function receiptOfSaleToken(deps: Pick<Deps, 'store'>, token: string) {
  const receipt = await receiptOfToken(deps.store, token);
  if (!receipt) return undefined;
  const { accountId, mode, saleId, productId, buyerEmail, customerId } = receipt;
  return { accountId, mode, saleId, productId, buyerEmail, customerId };
}

/** Past sales oldest first, after a sale id (a page of a backfill). */
export async function pastSalesPage(deps: Deps, scope: Scope, afterId: string, limit: number): Promise<SaleRecord[]> {
  return salesPage(deps.store, scope, afterId, limit);
}

/**
 * The write that puts the buyer's survey answer on the order (GET /orders/{id} shows it). The
 * survey capability commits it in the transaction that records the answer, so both exist or neither.
 */
export const saleAttributionOp = (scope: Scope, saleId: string, attribution: SaleAttribution): TransactOp => saleUpdate(scope, saleId, { attribution });
/** A sale of this tenant and mode by id (invoices). */
export const findSale = (deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<SaleRecord | undefined> => getSale(deps.store, scope, id);
