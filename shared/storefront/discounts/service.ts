import type { Deps } from '../../platform/context';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { objectId } from '../../platform/ids';
import { toCents, toMajor } from '../../platform/money';
import type { Scope } from '../../store/keys';
import { failOnCondition } from '../../store/conditional';
import type { TransactOp } from '../../store/store';
import { assertSellables, sellablePrice } from '../catalog-lookup';
import { applyDiscount, isExhausted, isExpired, normalizeCode, type DiscountValue } from './discount-math';
import type { DiscountRecord } from './records';
import {
  discountCodeGuardDelete,
  discountCodeGuardPut,
  discountDelete,
  discountPut,
  discountRedemption,
  discountUpdate,
  findDiscountIdByCode,
  loadDiscount,
  loadDiscounts,
} from './repository';
import type { CreateDiscountInput, UpdateDiscountInput } from './schemas';

const codeTaken = (code: string) => conflict(`Discount code ${code} already exists`, 'DISCOUNT_CODE_TAKEN');

/** The value in the shape the rules use: percent off, or cents off. */
export const discountValue = (d: Pick<DiscountRecord, 'valueType' | 'percentOff' | 'amountOffCents'>): DiscountValue =>
  d.valueType === 'fixed' ? { valueType: 'fixed', amountOffCents: d.amountOffCents ?? 0 } : { valueType: 'percentage', percentOff: d.percentOff ?? 0 };

function valueFields(valueType: 'percentage' | 'fixed', value: number): Pick<DiscountRecord, 'percentOff' | 'amountOffCents'> {
  if (valueType === 'percentage') {
    if (value > 100) throw badRequest('value: a percentage discount is at most 100', { field: 'value' });
    return { percentOff: value };
  }
  return { amountOffCents: toCents(value) };
}

export const presentDiscount = (d: DiscountRecord) => ({
  _id: d._id,
  name: d.name,
  code: d.code,
  valueType: d.valueType,
  value: d.valueType === 'fixed' ? toMajor(d.amountOffCents ?? 0) : (d.percentOff ?? 0),
  mainProductIds: d.mainProductIds,
  expiresAt: d.validUntil ?? null,
  maxUses: d.maxUses ?? null,
  uses: d.uses,
  testMode: d.testMode,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/**
 * The writes that create a discount, for callers that need the code inside their own transaction
 * (funnels create a code with the funnel). ConditionFailed from the transaction means the code is
 * taken. Product ids are not checked here.
 */
export function createDiscountOps(deps: Deps, scope: Scope, input: CreateDiscountInput): { discount: DiscountRecord; ops: TransactOp[] } {
  const now = deps.clock.now().toISOString();
  const discount: DiscountRecord = {
    _id: objectId(deps.clock),
    name: input.name,
    code: input.code,
    valueType: input.valueType,
    ...valueFields(input.valueType, input.value),
    mainProductIds: [...new Set(input.mainProductIds)],
    ...(input.expiresAt ? { validUntil: new Date(input.expiresAt).toISOString() } : {}),
    ...(input.maxUses ? { maxUses: input.maxUses } : {}),
    uses: 0,
    testMode: scope.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
  return { discount, ops: [discountPut(scope, discount), discountCodeGuardPut(scope, normalizeCode(input.code), discount._id)] };
}

export async function createDiscount(deps: Deps, scope: Scope, input: CreateDiscountInput): Promise<DiscountRecord> {
  const { discount, ops } = createDiscountOps(deps, scope, input);
  await assertSellables(deps, scope, discount.mainProductIds, 'mainProductIds');
  await failOnCondition(deps.store.transact(ops), () => codeTaken(input.code));
  return discount;
}

export const listDiscounts = (deps: Deps, scope: Scope) => loadDiscounts(deps.store, scope);

export async function getDiscount(deps: Deps, scope: Scope, id: string): Promise<DiscountRecord> {
  const discount = await loadDiscount(deps.store, scope, id);
  if (!discount) throw notFound('Discount');
  return discount;
}

export async function updateDiscount(deps: Deps, scope: Scope, id: string, input: UpdateDiscountInput): Promise<DiscountRecord> {
  const current = await getDiscount(deps, scope, id);
  const set: Record<string, unknown> = { updatedAt: deps.clock.now().toISOString() };
  const remove: string[] = [];
  if (input.name !== undefined) set.name = input.name;
  if (input.valueType !== undefined || input.value !== undefined) {
    const valueType = input.valueType ?? current.valueType;
    if (input.value === undefined && valueType !== current.valueType) throw badRequest('value: required when valueType changes', { field: 'value' });
    const value = input.value ?? presentDiscount(current).value;
    const fields = valueFields(valueType, value);
    set.valueType = valueType;
    if (fields.percentOff !== undefined) {
      set.percentOff = fields.percentOff;
      remove.push('amountOffCents');
    } else {
      set.amountOffCents = fields.amountOffCents;
      remove.push('percentOff');
    }
  }
  if (input.mainProductIds !== undefined) {
    set.mainProductIds = [...new Set(input.mainProductIds)];
    await assertSellables(deps, scope, set.mainProductIds as string[], 'mainProductIds');
  }
  if (input.expiresAt !== undefined) {
    if (input.expiresAt === null) remove.push('validUntil');
    else set.validUntil = new Date(input.expiresAt).toISOString();
  }
  if (input.maxUses !== undefined) {
    if (input.maxUses === null) remove.push('maxUses');
    else set.maxUses = input.maxUses;
  }
  const ops: TransactOp[] = [];
  if (input.code !== undefined && input.code !== current.code) {
    set.code = input.code;
    // A change of letter case keeps the same guard; a new code moves it.
    if (normalizeCode(input.code) !== normalizeCode(current.code)) {
      ops.push(discountCodeGuardPut(scope, normalizeCode(input.code), id), discountCodeGuardDelete(scope, normalizeCode(current.code), id));
    }
  }
  ops.unshift(discountUpdate(scope, id, set, remove));
  // The first operation is the discount itself: its condition failing means it is gone.
  await failOnCondition(deps.store.transact(ops), (failed) => (failed.reasons[0] === 'ConditionalCheckFailed' ? notFound('Discount') : codeTaken(input.code!)));
  return getDiscount(deps, scope, id);
}

export async function deleteDiscount(deps: Deps, scope: Scope, id: string): Promise<void> {
  const current = await getDiscount(deps, scope, id);
  await failOnCondition(deps.store.transact([discountDelete(scope, id), discountCodeGuardDelete(scope, normalizeCode(current.code), id)]), () =>
    notFound('Discount'),
  );
}

/** Why a known code cannot be used on this product right now; undefined when it can. */
function refusal(discount: DiscountRecord, productId: string, nowMs: number) {
  if (!discount.mainProductIds.includes(productId)) {
    return badRequest(`Discount code ${discount.code} does not apply to product ${productId}`, { code: 'DISCOUNT_NOT_APPLICABLE', field: 'productId' });
  }
  if (isExpired(discount.validUntil, nowMs))
    return badRequest(`Discount code ${discount.code} expired at ${discount.validUntil}`, { code: 'DISCOUNT_EXPIRED' });
  if (isExhausted(discount.uses, discount.maxUses))
    return badRequest(`Discount code ${discount.code} has been used ${discount.maxUses} times, its limit`, { code: 'DISCOUNT_EXHAUSTED' });
  return undefined;
}

async function discountByCode(deps: Deps, scope: Scope, code: string): Promise<DiscountRecord> {
  const normalized = normalizeCode(code);
  const id = normalized ? await findDiscountIdByCode(deps.store, scope, normalized) : undefined;
  const discount = id ? await loadDiscount(deps.store, scope, id) : undefined;
  if (!discount) throw notFound('Discount code');
  return discount;
}

/**
 * For checkout: the price after a code. Throws 404 for an unknown code and 400
 * DISCOUNT_NOT_APPLICABLE / DISCOUNT_EXPIRED / DISCOUNT_EXHAUSTED when it cannot be used.
 * Include redeemDiscountOps(scope, discountId) in the sale's transaction to count the use.
 */
export async function resolveDiscount(
  deps: Deps,
  scope: Scope,
  code: string,
  productId: string,
  priceCents: number,
): Promise<{ discountId: string; code: string; amountOffCents: number; finalPriceCents: number }> {
  return priceWith(deps, await discountByCode(deps, scope, code), productId, priceCents);
}

function priceWith(deps: Deps, discount: DiscountRecord, productId: string, priceCents: number) {
  const refused = refusal(discount, productId, deps.clock.nowMs());
  if (refused) throw refused;
  return { discountId: discount._id, code: discount.code, ...applyDiscount(priceCents, discountValue(discount)) };
}

/** The code as stored (its case), for a setting that names one (abandoned-checkout recovery); 404 when no such code. */
export async function discountCodeOf(deps: Deps, scope: Scope, code: string): Promise<string> {
  return (await discountByCode(deps, scope, code)).code;
}

/** The write that counts one use of a code; it fails the sale's transaction past maxUses. */
export const redeemDiscountOps = (scope: Scope, discountId: string): TransactOp[] => [discountRedemption(scope, discountId)];

/**
 * A use of a code claimed at payment (the sandbox commits it with the payment): the same
 * conditional count as redeemDiscountOps, with the refusal a buyer sees once the code is used up.
 */
export const claimDiscountUse = (scope: Scope, discountId: string, code: string) => ({
  ops: redeemDiscountOps(scope, discountId),
  refusal: { message: `Discount code ${code} has reached its limit of uses; open a new checkout without it`, code: 'DISCOUNT_EXHAUSTED' },
});

export async function applyDiscountToProduct(deps: Deps, scope: Scope, code: string, productId: string) {
  const price = await sellablePrice(deps, scope, productId);
  if (!price) throw notFound('Product');
  const discount = await discountByCode(deps, scope, code);
  const resolved = priceWith(deps, discount, productId, price.priceCents);
  return {
    code: discount.code,
    productId,
    originalPrice: toMajor(price.priceCents),
    discountedPrice: toMajor(resolved.finalPriceCents),
    amountOff: toMajor(resolved.amountOffCents),
    valueType: discount.valueType,
    value: presentDiscount(discount).value,
    currency: price.currency,
  };
}

/** Whether any usable code (not expired, not used up) names the product. */
export async function productHasDiscount(deps: Deps, scope: Scope, productId: string): Promise<boolean> {
  if (!(await sellablePrice(deps, scope, productId))) throw notFound('Product');
  const nowMs = deps.clock.nowMs();
  return (await loadDiscounts(deps.store, scope)).some((d) => !refusal(d, productId, nowMs));
}
