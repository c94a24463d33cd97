/**
 * Every query and write builder of the storefront records. Services compose the returned
 * TransactOps into one transaction; nothing outside this file builds a storefront key.
 */
import { PRODUCT, type ProductRecord } from '../catalog/records';
import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import {
  CREATOR_PAGE,
  DISCOUNT,
  IMAGE,
  PARTNER,
  RECEIPT_CAPABILITY_KIND,
  REFUND_POLICY,
  REVIEW,
  UPSELL,
  type CreatorLinkRecord,
  type CreatorPageRecord,
  type DiscountRecord,
  type ImageFileCapability,
  type ImageRecord,
  type PartnerRecord,
  type ReceiptCapability,
  type ReferralRecord,
  type ReferralSaleRecord,
  type RefundPolicyRecord,
  type ReviewRecord,
  type UpsellRecord,
} from './records';

const NOT_EXISTS = 'attribute_not_exists(PK)';
const EXISTS = 'attribute_exists(PK)';

const records = <T>(items: Record<string, unknown>[]) => items.map((i) => toRecord<T>(i)!);

// ---- discounts ----
const DISCOUNT_CODE = 'DISCOUNT_CODE';

export const getDiscount = async (store: Store, scope: Scope, id: string) => toRecord<DiscountRecord>(await store.get(keys.entity(scope, DISCOUNT, id)));

export const listDiscounts = async (store: Store, scope: Scope) => records<DiscountRecord>(await store.queryAll({ pk: keys.collection(scope, DISCOUNT) }));

/** The discount id a (normalised) code points to. */
export async function findDiscountIdByCode(store: Store, scope: Scope, normalizedCode: string): Promise<string | undefined> {
  const guard = await store.get<{ discountId?: string }>(keys.unique(scope, DISCOUNT_CODE, normalizedCode));
  return guard?.discountId;
}

export const discountCodeGuardPut = (scope: Scope, normalizedCode: string, discountId: string): TransactOp => ({
  put: toItem(keys.unique(scope, DISCOUNT_CODE, normalizedCode), 'DiscountCode', { discountId }),
  condition: NOT_EXISTS,
});

export const discountCodeGuardDelete = (scope: Scope, normalizedCode: string, discountId: string): TransactOp => ({
  delete: keys.unique(scope, DISCOUNT_CODE, normalizedCode),
  condition: '#d = :d',
  names: { '#d': 'discountId' },
  values: { ':d': discountId },
});

export const discountPut = (scope: Scope, discount: DiscountRecord): TransactOp => ({ put: toItem(keys.entity(scope, DISCOUNT, discount._id), 'Discount', discount), condition: NOT_EXISTS });

/** Sets the named fields only, so a concurrent redemption count is never overwritten. */
export const discountUpdate = (scope: Scope, id: string, set: Record<string, unknown>, remove: string[]): TransactOp => ({
  update: keys.entity(scope, DISCOUNT, id),
  set,
  remove,
  condition: EXISTS,
});

export const discountDelete = (scope: Scope, id: string): TransactOp => ({ delete: keys.entity(scope, DISCOUNT, id), condition: EXISTS });

/** Counts one use; fails the surrounding transaction once the code has reached maxUses. */
export const discountRedemption = (scope: Scope, id: string): TransactOp => ({
  update: keys.entity(scope, DISCOUNT, id),
  set: {},
  add: { uses: 1 },
  condition: 'attribute_exists(PK) AND (attribute_not_exists(#max) OR #uses < #max)',
  names: { '#max': 'maxUses', '#uses': 'uses' },
});

// ---- upsells ----
export const getUpsell = async (store: Store, scope: Scope, id: string) => toRecord<UpsellRecord>(await store.get(keys.entity(scope, UPSELL, id)));
export const listUpsells = async (store: Store, scope: Scope) => records<UpsellRecord>(await store.queryAll({ pk: keys.collection(scope, UPSELL) }));
export const putUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) => store.put(toItem(keys.entity(scope, UPSELL, upsell._id), 'Upsell', upsell), { ifNotExists: true });
export const replaceUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) =>
  store.put(toItem(keys.entity(scope, UPSELL, upsell._id), 'Upsell', upsell), { condition: EXISTS });
export const deleteUpsell = async (store: Store, scope: Scope, id: string) => !!(await store.delete(keys.entity(scope, UPSELL, id)));

// ---- images ----
const IMAGE_FILE = 'image';

export const getImage = async (store: Store, scope: Scope, id: string) => toRecord<ImageRecord>(await store.get(keys.entity(scope, IMAGE, id)));
export const listImages = async (store: Store, scope: Scope) => records<ImageRecord>(await store.queryAll({ pk: keys.collection(scope, IMAGE) }));

export const imagePutOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  { put: toItem(keys.entity(scope, IMAGE, image._id), 'Image', image), condition: NOT_EXISTS },
  {
    put: toItem(keys.capability(IMAGE_FILE, image.fileToken), 'ImageFile', {
      accountId: scope.accountId,
      mode: scope.mode,
      imageId: image._id,
      blobKey: image.blobKey,
      contentType: image.contentType,
    } satisfies ImageFileCapability),
    condition: NOT_EXISTS,
  },
];

export const imageDeleteOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  { delete: keys.entity(scope, IMAGE, image._id), condition: EXISTS },
  { delete: keys.capability(IMAGE_FILE, image.fileToken) },
];

export const findImageFile = async (store: Store, fileToken: string) => toRecord<ImageFileCapability>(await store.get(keys.capability(IMAGE_FILE, fileToken)));

// ---- creator page: one per account and mode, links as its children ----
const PAGE_ID = 'PAGE';
const LINK = 'LINK';

export const getCreatorPage = async (store: Store, scope: Scope) => toRecord<CreatorPageRecord>(await store.get(keys.entity(scope, CREATOR_PAGE, PAGE_ID)));
/** Creates the page; ConditionFailed when another request made it first. */
export async function createCreatorPage(store: Store, scope: Scope, page: CreatorPageRecord): Promise<void> {
  await store.put(toItem(keys.entity(scope, CREATOR_PAGE, PAGE_ID), 'CreatorPage', page), { ifNotExists: true });
}
export const updateCreatorPage = async (store: Store, scope: Scope, set: Record<string, unknown>) =>
  toRecord<CreatorPageRecord>(await store.update(keys.entity(scope, CREATOR_PAGE, PAGE_ID), { set }, { mustExist: true }))!;

/** In the order they were added (ids are time-ordered). */
export const listCreatorLinks = async (store: Store, scope: Scope) =>
  records<CreatorLinkRecord>(await store.queryAll({ pk: keys.children(scope, CREATOR_PAGE, PAGE_ID, LINK), ascending: true }));
export const getCreatorLink = async (store: Store, scope: Scope, id: string) =>
  toRecord<CreatorLinkRecord>(await store.get(keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, id)));
export const putCreatorLink = (store: Store, scope: Scope, link: CreatorLinkRecord) =>
  store.put(toItem(keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, link._id), 'CreatorPageLink', link), { ifNotExists: true });
export const updateCreatorLink = async (store: Store, scope: Scope, id: string, set: Record<string, unknown>) =>
  toRecord<CreatorLinkRecord>(await store.update(keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, id), { set }, { mustExist: true }))!;
export const deleteCreatorLink = async (store: Store, scope: Scope, id: string) => !!(await store.delete(keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, id)));

// ---- partners, referrals, referral sales (children of the partner) ----
const PARTNER_CODE = 'PARTNER_CODE';
const REFERRAL = 'REFERRAL';
const REFERRAL_SALE = 'REFERRAL_SALE';

export const getPartner = async (store: Store, scope: Scope, id: string) => toRecord<PartnerRecord>(await store.get(keys.entity(scope, PARTNER, id)));
export const listPartners = async (store: Store, scope: Scope) => records<PartnerRecord>(await store.queryAll({ pk: keys.collection(scope, PARTNER) }));

export async function findPartnerByCode(store: Store, scope: Scope, normalizedCode: string): Promise<PartnerRecord | undefined> {
  const guard = await store.get<{ partnerId?: string }>(keys.unique(scope, PARTNER_CODE, normalizedCode));
  return guard?.partnerId ? getPartner(store, scope, guard.partnerId) : undefined;
}

export const partnerPutOps = (scope: Scope, partner: PartnerRecord, normalizedCode: string): TransactOp[] => [
  { put: toItem(keys.entity(scope, PARTNER, partner._id), 'Partner', partner), condition: NOT_EXISTS },
  { put: toItem(keys.unique(scope, PARTNER_CODE, normalizedCode), 'PartnerCode', { partnerId: partner._id }), condition: NOT_EXISTS },
];

export const putReferral = (store: Store, scope: Scope, referral: ReferralRecord) =>
  store.put(toItem(keys.child(scope, PARTNER, referral.partnerId, REFERRAL, referral._id), 'PartnerReferral', referral), { ifNotExists: true });

/** One put per sale: a replayed sale cannot be counted twice. */
export const referralSalePut = (scope: Scope, sale: ReferralSaleRecord): TransactOp => ({
  put: toItem(keys.child(scope, PARTNER, sale.partnerId, REFERRAL_SALE, sale._id), 'PartnerReferralSale', sale),
  condition: NOT_EXISTS,
});

export const listReferrals = async (store: Store, scope: Scope, partnerId: string) =>
  records<ReferralRecord>(await store.queryAll({ pk: keys.children(scope, PARTNER, partnerId, REFERRAL) }));
export const listReferralSales = async (store: Store, scope: Scope, partnerId: string) =>
  records<ReferralSaleRecord>(await store.queryAll({ pk: keys.children(scope, PARTNER, partnerId, REFERRAL_SALE) }));

// ---- reviews ----
const REVIEW_SALE = 'REVIEW_SALE';
const REVIEWS_OF_PRODUCT = 'REVIEWS_OF_PRODUCT';

export const findReceipt = async (store: Store, token: string) => toRecord<ReceiptCapability>(await store.get(keys.capability(RECEIPT_CAPABILITY_KIND, token)));

export const reviewPutOps = (scope: Scope, review: ReviewRecord): TransactOp[] => [
  {
    put: toItem(keys.entity(scope, REVIEW, review._id), 'Review', review, {
      indexes: [keys.indexed('GSI1', scope, REVIEWS_OF_PRODUCT, review.productId, review._id)],
    }),
    condition: NOT_EXISTS,
  },
  // One review per sale: the guard is what makes a second submission fail.
  { put: toItem(keys.unique(scope, REVIEW_SALE, review.saleId), 'ReviewOfSale', { reviewId: review._id }), condition: NOT_EXISTS },
];

export async function listReviews(store: Store, scope: Scope, productId?: string): Promise<ReviewRecord[]> {
  if (productId) {
    const partition = keys.indexPartition('GSI1', scope, REVIEWS_OF_PRODUCT, productId);
    return records<ReviewRecord>(await store.queryAll({ index: partition.index, pk: partition.pk }));
  }
  return records<ReviewRecord>(await store.queryAll({ pk: keys.collection(scope, REVIEW) }));
}

// ---- refund policies ----
export const getRefundPolicy = async (store: Store, scope: Scope, id: string) => toRecord<RefundPolicyRecord>(await store.get(keys.entity(scope, REFUND_POLICY, id)));
export const listRefundPolicies = async (store: Store, scope: Scope) => records<RefundPolicyRecord>(await store.queryAll({ pk: keys.collection(scope, REFUND_POLICY) }));
export const putRefundPolicy = (store: Store, scope: Scope, policy: RefundPolicyRecord) =>
  store.put(toItem(keys.entity(scope, REFUND_POLICY, policy._id), 'RefundPolicy', policy), { ifNotExists: true });

/**
 * How many of the tenant's products use each refund policy. Reads the tenant's product partition
 * (bounded: one seller's catalog), keeping only live products that name a policy.
 */
export async function countProductsByRefundPolicy(store: Store, scope: Scope): Promise<Map<string, number>> {
  const products = await store.queryAll<ProductRecord>({
    pk: keys.collection(scope, PRODUCT),
    // Deleted products stay in the partition for history (deletedAt); they use no policy.
    filter: { expression: 'attribute_exists(#p) AND attribute_not_exists(#d)', names: { '#p': 'refundPolicyId', '#d': 'deletedAt' } },
  });
  const counts = new Map<string, number>();
  for (const product of products) if (product.refundPolicyId) counts.set(product.refundPolicyId, (counts.get(product.refundPolicyId) ?? 0) + 1);
  return counts;
}
