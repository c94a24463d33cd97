import type { ProductRecord } from '../catalog/records';
import { autoRefillFailedData, autoRefillSucceededData, balanceChangedData, consentEnabledData, creditGrantedData } from './events';
import { lookupProduct } from '../catalog/service';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId, randomBase62 } from '../platform/ids';
import type { CustomerRecord, SaleRecord } from '../sales/records';
import { normalizeEmail } from '../sales/records';
import { findCustomer, findCustomerOfEmail } from '../sales/lookups';
import { newSale, saleWrites } from '../sales/transaction';
import type { Scope } from '../store/keys';
import { onConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import type { CreditAccountRecord } from './records';
import { creditAccountPointerPut, creditAccountPut, creditLinkPut, creditRefillClaim, findCreditAccount, listCreditAccountRecords } from './repository';
import type { DeductInput } from './schemas';

/**
 * Credit balances of buyers of `credits` products, in integer cents. A balance never goes below
 * zero (conditional write on the balance read). When a deduction brings it to exactly zero and the
 * buyer saved a card at checkout, the card is charged once for the product's top-off; a failed
 * charge pauses the balance and emails the buyer; nothing is retried.
 */
export const presentCreditAccount = (a: CreditAccountRecord) => ({
  _id: a._id,
  productId: a.productId,
  customerId: a.customerId,
  buyerEmail: a.buyerEmail,
  balanceCents: a.balanceCents,
  currency: a.currency,
  status: a.status,
  autoRefill: { enabled: a.autoRefill.consent, paymentMethodId: a.autoRefill.paymentMethodId },
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

/** The writes and events of buying a credits product; they ride in the sale's transaction. */
export async function creditPurchaseOps(
  deps: Deps,
  scope: Scope,
  input: { product: ProductRecord; customer: CustomerRecord; sale: SaleRecord; savedCardId: string | null },
): Promise<{ ops: TransactOp[]; events: DomainEvent[] }> {
  const now = deps.clock.now().toISOString();
  const grant = input.product.creditAmount ?? input.sale.originalAmountCents;
  const existing = await findCreditAccount(deps.store, scope, input.product._id, input.customer.buyerEmail);
  const account: CreditAccountRecord = existing
    ? { ...existing, balanceCents: existing.balanceCents + grant, status: 'active', updatedAt: now }
    : {
        _id: objectId(deps.clock),
        productId: input.product._id,
        customerId: input.customer._id,
        buyerEmail: input.customer.buyerEmail,
        balanceCents: grant,
        currency: input.product.currency,
        status: 'active',
        autoRefill: { consent: false, paymentMethodId: null },
        createdAt: now,
        updatedAt: now,
      };
  const consentNow = Boolean(input.savedCardId) && !account.autoRefill.consent;
  if (input.savedCardId) account.autoRefill = { consent: true, paymentMethodId: input.savedCardId };
  const ops: TransactOp[] = [];
  // Consent comes with the buyer's own link to turn it off again (in every credit mail).
  if (consentNow && !account.consentToken) {
    account.consentToken = randomBase62(32);
    ops.push(creditLinkPut(scope, account.consentToken, account._id));
  }
  ops.push(creditAccountPut(scope, account, existing));
  if (!existing) ops.push(creditAccountPointerPut(scope, account));
  const events = [
    newEvent(scope, deps.clock, 'credit.granted', creditGrantedData(account, grant, input.sale._id)),
    newEvent(scope, deps.clock, 'credit.balance_changed', balanceChangedData(account, grant, 'purchase')),
  ];
  if (consentNow) events.push(newEvent(scope, deps.clock, 'credit.consent.enabled', consentEnabledData(account, input.savedCardId)));
  return { ops, events };
}

const getCreditAccountOf = (deps: Deps, scope: Scope, account: CreditAccountRecord) =>
  findCreditAccount(deps.store, scope, account.productId, account.buyerEmail);

export async function listCreditAccounts(ctx: OperationContext, filter: { email?: string; productId?: string }) {
  return (await listCreditAccountRecords(ctx.store, ctx.scope))
    .filter((a) => (!filter.email || a.buyerEmail === normalizeEmail(filter.email)) && (!filter.productId || a.productId === filter.productId))
    .map(presentCreditAccount);
}

export async function deductCredits(ctx: OperationContext, input: DeductInput) {
  const { scope } = ctx;
  let email = input.email ? normalizeEmail(input.email) : undefined;
  if (!email && input.customerId) email = (await findCustomer(ctx, scope, input.customerId))?.buyerEmail;
  if (!email) throw badRequest('email or customerId is required', { field: 'email' });
  for (let attempt = 0; attempt < 5; attempt++) {
    const account = await findCreditAccount(ctx.store, scope, input.productId, email);
    if (!account) throw notFound('Credit account');
    if (account.status === 'paused') throw conflict('This credit balance is paused after a failed top-off', 'CREDITS_PAUSED');
    if (account.balanceCents < input.amountCents) {
      throw conflict(`Insufficient credits: the balance is ${account.balanceCents}`, 'INSUFFICIENT_CREDITS', { balanceCents: account.balanceCents });
    }
    const after: CreditAccountRecord = { ...account, balanceCents: account.balanceCents - input.amountCents, updatedAt: ctx.clock.now().toISOString() };
    const event = newEvent(scope, ctx.clock, 'credit.balance_changed', balanceChangedData(after, -input.amountCents, input.reason ?? 'usage'));
    if (
      !(await onConditionFailed(
        ctx.store.transact([creditAccountPut(scope, after, account), outboxPut(event)]).then(() => true),
        () => false,
      ))
    )
      continue;
    let refill: { attempted: boolean; succeeded: boolean } = { attempted: false, succeeded: false };
    let final = after;
    if (after.balanceCents === 0 && after.autoRefill.consent && after.autoRefill.paymentMethodId) {
      const outcome = await autoRefill(ctx, scope, after);
      refill = { attempted: true, succeeded: outcome.succeeded };
      final = outcome.account;
    }
    return { account: presentCreditAccount(final), deductedCents: input.amountCents, balanceCents: final.balanceCents, autoRefill: refill };
  }
  throw conflict('The balance changed at the same time; retry', 'CONCURRENT_UPDATE');
}

async function autoRefill(deps: Deps, scope: Scope, read: CreditAccountRecord): Promise<{ succeeded: boolean; account: CreditAccountRecord }> {
  const product = await lookupProduct(deps, scope, read.productId);
  const topOff = product?.creditAutoRefill?.enabled ? product.creditAutoRefill.topOffCents : 0;
  if (!product || topOff <= 0) return { succeeded: false, account: read };
  const now = deps.clock.now().toISOString();
  // Claim the top-off first: it fails when the buyer withdrew consent (or anything changed) since
  // the deduction, and a withdrawal waits while the claim stands (repository.ts).
  if (
    !(await onConditionFailed(
      deps.store.transact([creditRefillClaim(scope, read, now)]).then(() => true),
      () => false,
    ))
  ) {
    return { succeeded: false, account: (await getCreditAccountOf(deps, scope, read)) ?? read };
  }
  const { refillClaimedAt: _claim, ...account } = read;
  let charge: Awaited<ReturnType<Deps['ports']['processor']['chargeSavedCard']>> | undefined;
  let failure: string | undefined;
  try {
    charge = await deps.ports.processor.chargeSavedCard(scope, {
      paymentMethodId: account.autoRefill.paymentMethodId!,
      amountCents: topOff,
      currency: account.currency,
      description: `${product.name} top-off`,
    });
  } catch (error) {
    failure = (error as Error).message;
  }
  if (!charge) {
    const after: CreditAccountRecord = { ...account, status: 'paused', updatedAt: now };
    await deps.store.transact([
      creditAccountPut(scope, after, account),
      outboxPut(newEvent(scope, deps.clock, 'credit.auto_refill.failed', autoRefillFailedData(after, topOff, failure ?? 'declined'))),
    ]);
    // The buyer's email follows from the committed event (see consumers.ts), so it cannot be lost.
    return { succeeded: false, account: after };
  }
  const customer = (await findCustomer(deps, scope, account.customerId)) ?? (await findCustomerOfEmail(deps, scope, account.buyerEmail));
  const after: CreditAccountRecord = { ...account, balanceCents: account.balanceCents + topOff, updatedAt: now };
  const ops: TransactOp[] = [creditAccountPut(scope, after, account)];
  const events: DomainEvent[] = [];
  if (customer) {
    const sale = newSale(
      deps.clock,
      scope,
      {
        type: 'one_time',
        productId: product._id,
        productName: product.name,
        subscriptionId: null,
        subscriberId: null,
        customerId: customer._id,
        buyerEmail: customer.buyerEmail,
        firstName: customer.firstName,
        lastName: customer.lastName,
        country: customer.country,
        amountCents: topOff,
        originalAmountCents: topOff,
        currency: account.currency,
        discountCode: null,
        paymentIntentId: charge.paymentId,
        planId: null,
        membershipId: null,
        paymentMethod: charge.paymentMethod,
        checkoutSessionId: null,
        clientReferenceId: null,
        metadata: { creditAutoRefill: true },
        free: false,
      },
      now,
    );
    events.push(
      newEvent(scope, deps.clock, 'credit.auto_refill.succeeded', autoRefillSucceededData(after, topOff, sale._id, charge.paymentId)),
      newEvent(scope, deps.clock, 'credit.balance_changed', balanceChangedData(after, topOff, 'auto_refill')),
    );
    // The top-off is a sale of the credits product: sales' own writes and events.
    const recorded = saleWrites(deps, scope, { sale, customer, countOrder: true, now, reviewLink: false });
    ops.push(...recorded.ops);
    events.push(...recorded.events);
  }
  await deps.store.transact([...ops, ...events.map(outboxPut)]);
  return { succeeded: true, account: after };
}
