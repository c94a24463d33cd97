import type { Deps } from '../../platform/context';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { objectId, randomBase62 } from '../../platform/ids';
import { toMajor } from '../../platform/money';
import type { Scope } from '../../store/keys';
import { isConditionFailed } from '../../store/conditional';
import type { TransactOp } from '../../store/store';
import { commissionCents, totalSales } from './commission';
import { normalizeCode } from '../discounts/discount-math';
import type { PartnerRecord, ReferralRecord, ReferralSaleRecord } from './records';
import { findPartnerByCode, insertReferral, loadPartner, loadPartners, loadReferralSales, loadReferrals, partnerPutOps, referralSalePut } from './repository';

export const presentReferralSale = (s: ReferralSaleRecord) => ({
  _id: s._id,
  saleId: s.saleId,
  partnerId: s.partnerId,
  referralCode: s.referralCode,
  amount: toMajor(s.amountCents),
  currency: s.currency,
  commissionPercent: s.commissionPercent,
  commission: toMajor(s.commissionCents),
  buyerEmail: s.buyerEmail,
  productId: s.productId,
  createdAt: s.createdAt,
});

export async function createPartner(
  deps: Deps,
  scope: Scope,
  input: { name: string; email: string; referralCode?: string; commissionPercent: number },
): Promise<PartnerRecord> {
  // A generated code may collide with an existing one; a chosen one that collides is the caller's to change.
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now().toISOString();
    const partner: PartnerRecord = {
      _id: objectId(deps.clock),
      name: input.name,
      email: input.email.toLowerCase(),
      referralCode: input.referralCode ?? randomBase62(8).toUpperCase(),
      commissionPercent: input.commissionPercent,
      testMode: scope.mode === 'test',
      createdAt: now,
      updatedAt: now,
    };
    try {
      await deps.store.transact(partnerPutOps(scope, partner, normalizeCode(partner.referralCode)));
      return partner;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (input.referralCode || attempt >= 3) throw conflict(`Referral code ${partner.referralCode} already exists`, 'REFERRAL_CODE_TAKEN');
    }
  }
}

export const listPartners = (deps: Deps, scope: Scope) => loadPartners(deps.store, scope);

async function partnerByCode(deps: Deps, scope: Scope, code: string): Promise<PartnerRecord> {
  const normalized = normalizeCode(code);
  const partner = normalized ? await findPartnerByCode(deps.store, scope, normalized) : undefined;
  if (!partner) throw new ApiError(404, `Referral code ${code} not found`, { code: 'REFERRAL_CODE_NOT_FOUND' });
  return partner;
}

export async function registerReferral(deps: Deps, scope: Scope, input: { referralCode: string; email?: string }): Promise<ReferralRecord> {
  const partner = await partnerByCode(deps, scope, input.referralCode);
  const referral: ReferralRecord = {
    _id: objectId(deps.clock),
    partnerId: partner._id,
    referralCode: partner.referralCode,
    email: input.email?.toLowerCase() ?? null,
    createdAt: deps.clock.now().toISOString(),
  };
  await insertReferral(deps.store, scope, referral);
  return referral;
}

/** The partners a listing covers: one (404 when it is not this tenant's) or all. */
async function partnersFor(deps: Deps, scope: Scope, partnerId?: string): Promise<PartnerRecord[]> {
  if (!partnerId) return loadPartners(deps.store, scope);
  const partner = await loadPartner(deps.store, scope, partnerId);
  if (!partner) throw notFound('Partner');
  return [partner];
}

const newestFirst = <T extends { createdAt: string; _id: string }>(a: T, b: T) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);

/** Referrals live under their partner; a tenant's partner list is short, so listing all reads each. */
export async function listReferrals(deps: Deps, scope: Scope, partnerId?: string): Promise<ReferralRecord[]> {
  const partners = await partnersFor(deps, scope, partnerId);
  return (await Promise.all(partners.map((p) => loadReferrals(deps.store, scope, p._id)))).flat().sort(newestFirst);
}

export async function listReferralSales(deps: Deps, scope: Scope, partnerId?: string): Promise<ReferralSaleRecord[]> {
  const partners = await partnersFor(deps, scope, partnerId);
  return (await Promise.all(partners.map((p) => loadReferralSales(deps.store, scope, p._id)))).flat().sort(newestFirst);
}

export async function partnerStats(deps: Deps, scope: Scope, currency: string) {
  const partners = await loadPartners(deps.store, scope);
  const rows = await Promise.all(
    partners.map(async (partner) => {
      const [referrals, sales] = await Promise.all([loadReferrals(deps.store, scope, partner._id), loadReferralSales(deps.store, scope, partner._id)]);
      const totals = totalSales(sales);
      return {
        partnerId: partner._id,
        name: partner.name,
        referralCode: partner.referralCode,
        commissionPercent: partner.commissionPercent,
        referrals: referrals.length,
        sales: totals.sales,
        revenueCents: totals.revenueCents,
        commissionCents: totals.commissionCents,
      };
    }),
  );
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((total, r) => total + pick(r), 0);
  return {
    currency,
    totals: {
      referrals: sum((r) => r.referrals),
      sales: sum((r) => r.sales),
      revenue: toMajor(sum((r) => r.revenueCents)),
      commission: toMajor(sum((r) => r.commissionCents)),
    },
    partners: rows.map(({ revenueCents, commissionCents: commission, ...row }) => ({
      ...row,
      revenue: toMajor(revenueCents),
      commission: toMajor(commission),
    })),
  };
}

/**
 * For checkout: the writes that credit a referred sale to its partner (the commission is fixed at
 * sale time from the partner's current percent). Include them in the sale's transaction. An
 * unknown code answers [] so a stale referral link never blocks a purchase.
 */
export async function referralSaleOps(
  deps: Deps,
  scope: Scope,
  input: { referralCode: string; saleId: string; amountCents: number; currency: string; buyerEmail: string; productId: string },
): Promise<TransactOp[]> {
  const code = normalizeCode(input.referralCode);
  if (!code || code.length > 100) return [];
  const partner = await findPartnerByCode(deps.store, scope, code);
  if (!partner) return [];
  const record: ReferralSaleRecord = {
    _id: input.saleId,
    saleId: input.saleId,
    partnerId: partner._id,
    referralCode: partner.referralCode,
    amountCents: input.amountCents,
    currency: input.currency,
    commissionPercent: partner.commissionPercent,
    commissionCents: commissionCents(input.amountCents, partner.commissionPercent),
    buyerEmail: input.buyerEmail.toLowerCase(),
    productId: input.productId,
    createdAt: deps.clock.now().toISOString(),
  };
  return [referralSalePut(scope, record)];
}
