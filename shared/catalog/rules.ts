import type { OfferRecord, ProductRecord, UsagePricing } from './records';
import type { OfferCreateInput, OfferUpdateInput, OfferView, ProductCreateInput, ProductUpdateInput, ProductView } from './schemas';
import { centsToPrice, priceToCents } from './pricing';

// Pure rules of the catalog: building a record from create input, merging a partial update,
// the checks between fields, and the API view of a record. No I/O, no clock.

export interface NewRecordMeta {
  id: string;
  currency: string;
  testMode: boolean;
  /** ISO time of the change. */
  now: string;
}

export interface Problem {
  field: string;
  message: string;
}

type PwywInput = ProductCreateInput['payWhatYouWant'];

function payWhatYouWant(input: PwywInput, current: ProductRecord['payWhatYouWant']): ProductRecord['payWhatYouWant'] {
  if (input === undefined) return current;
  const minimumCents = current?.minimumCents ?? 0;
  if (typeof input === 'boolean') return { enabled: input, minimumCents };
  return { enabled: input.enabled, minimumCents: input.minimumPrice === undefined ? minimumCents : priceToCents(input.minimumPrice) };
}

export function buildProduct(input: ProductCreateInput, meta: NewRecordMeta): ProductRecord {
  const record: ProductRecord = {
    _id: meta.id,
    name: input.name,
    priceCents: priceToCents(input.price),
    currency: meta.currency,
    productType: input.productType ?? 'digital',
    payWhatYouWant: payWhatYouWant(input.payWhatYouWant, undefined) ?? { enabled: false, minimumCents: 0 },
    published: input.published ?? true,
    refundPolicyId: input.refundPolicyId ?? null,
    imageIds: input.imageIds ?? [],
    testMode: meta.testMode,
    createdAt: meta.now,
    updatedAt: meta.now,
  };
  if (input.description != null) record.description = input.description;
  if (input.creditAmount !== undefined) record.creditAmount = input.creditAmount;
  if (input.creditAutoRefill !== undefined) record.creditAutoRefill = input.creditAutoRefill;
  if (input.licenseKeys !== undefined) record.licenseKeys = licenseKeys(input.licenseKeys);
  if (input.downloadLimit != null) record.downloadLimit = input.downloadLimit;
  if (input.allowedFileTypes?.length) record.allowedFileTypes = [...new Set(input.allowedFileTypes)];
  return record;
}

const licenseKeys = (input: NonNullable<ProductCreateInput['licenseKeys']>): NonNullable<ProductRecord['licenseKeys']> => ({
  enabled: input.enabled,
  activationLimit: input.activationLimit,
  ...(input.expiresInDays != null ? { expiresInDays: input.expiresInDays } : {}),
});

/** Applies a partial update; fields left out keep their value, null clears the optional ones. */
export function mergeProduct(current: ProductRecord, change: ProductUpdateInput, now: string): ProductRecord {
  const next: ProductRecord = { ...current, updatedAt: now };
  if (change.name !== undefined) next.name = change.name;
  if (change.price !== undefined) next.priceCents = priceToCents(change.price);
  if (change.published !== undefined) next.published = change.published;
  if (change.imageIds !== undefined) next.imageIds = change.imageIds;
  if (change.refundPolicyId !== undefined) next.refundPolicyId = change.refundPolicyId;
  if (change.description === null) delete next.description;
  else if (change.description !== undefined) next.description = change.description;
  next.payWhatYouWant = payWhatYouWant(change.payWhatYouWant, current.payWhatYouWant);
  if (change.productType !== undefined) {
    next.productType = change.productType;
    // Turning a credits product into a plain one drops the credit fields it no longer uses.
    if (change.productType !== 'credits') {
      delete next.creditAmount;
      delete next.creditAutoRefill;
    }
  }
  if (change.creditAmount === null) delete next.creditAmount;
  else if (change.creditAmount !== undefined) next.creditAmount = change.creditAmount;
  if (change.creditAutoRefill === null) delete next.creditAutoRefill;
  else if (change.creditAutoRefill !== undefined) next.creditAutoRefill = change.creditAutoRefill;
  if (change.licenseKeys === null) delete next.licenseKeys;
  else if (change.licenseKeys !== undefined) next.licenseKeys = licenseKeys(change.licenseKeys);
  if (change.downloadLimit === null) delete next.downloadLimit;
  else if (change.downloadLimit !== undefined) next.downloadLimit = change.downloadLimit;
  if (change.allowedFileTypes === null || (change.allowedFileTypes && !change.allowedFileTypes.length)) delete next.allowedFileTypes;
  else if (change.allowedFileTypes !== undefined) next.allowedFileTypes = [...new Set(change.allowedFileTypes)];
  return next;
}

/** The checks between fields, on the record as it would be stored. */
export function productProblem(record: ProductRecord): Problem | undefined {
  if (record.productType !== 'credits') {
    if (record.creditAutoRefill !== undefined)
      return { field: 'creditAutoRefill', message: 'creditAutoRefill: only credits products take it (productType credits)' };
    if (record.creditAmount !== undefined) return { field: 'creditAmount', message: 'creditAmount: only credits products take it (productType credits)' };
  }
  if (record.creditAutoRefill?.enabled && record.creditAutoRefill.topOffCents < 1) {
    return { field: 'creditAutoRefill.topOffCents', message: 'creditAutoRefill.topOffCents: must be at least 1 when auto refill is enabled' };
  }
  if (record.payWhatYouWant?.enabled && record.payWhatYouWant.minimumCents > record.priceCents) {
    return { field: 'payWhatYouWant.minimumPrice', message: 'payWhatYouWant.minimumPrice: must not be above price' };
  }
  return undefined;
}

export function toProductView(record: ProductRecord): ProductView {
  return {
    _id: record._id,
    name: record.name,
    description: record.description ?? null,
    price: centsToPrice(record.priceCents),
    currency: record.currency,
    productType: record.productType,
    ...(record.creditAmount !== undefined ? { creditAmount: record.creditAmount } : {}),
    ...(record.creditAutoRefill !== undefined
      ? { creditAutoRefill: { enabled: record.creditAutoRefill.enabled, topOffCents: record.creditAutoRefill.topOffCents } }
      : {}),
    payWhatYouWant: { enabled: record.payWhatYouWant?.enabled ?? false, minimumPrice: centsToPrice(record.payWhatYouWant?.minimumCents ?? 0) },
    published: record.published,
    refundPolicyId: record.refundPolicyId ?? null,
    // Like the credit fields: only on products that use them, so other clients see no change.
    ...(record.licenseKeys
      ? {
          licenseKeys: {
            enabled: record.licenseKeys.enabled,
            activationLimit: record.licenseKeys.activationLimit,
            expiresInDays: record.licenseKeys.expiresInDays ?? null,
          },
        }
      : {}),
    ...(record.downloadLimit !== undefined ? { downloadLimit: record.downloadLimit } : {}),
    ...(record.allowedFileTypes?.length ? { allowedFileTypes: record.allowedFileTypes } : {}),
    imageIds: record.imageIds ?? [],
    // The public buy link, relative to the API's base address (events carry it too, and they
    // name no deployment address).
    buyPath: `/buy/${record._id}`,
    testMode: record.testMode,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** Whether an update changed anything a client can see (updatedAt aside). */
export function sameView<T extends { updatedAt: string }>(a: T, b: T): boolean {
  return JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });
}

// ---- offers ----

function usagePricing(input: OfferCreateInput['usagePricing'], current: UsagePricing | undefined): UsagePricing {
  return {
    seats: input?.seats ?? current?.seats ?? { enabled: false },
    meters: input?.meters ?? current?.meters ?? [],
  };
}

/** Seats on or any meter: usage billing, which needs the Pro plan (document 2). */
export function usesUsagePricing(input: { seats?: { enabled: boolean }; meters?: unknown[] } | null | undefined): boolean {
  return Boolean(input && (input.seats?.enabled || (input.meters?.length ?? 0) > 0));
}

export function buildOffer(input: OfferCreateInput, meta: NewRecordMeta): OfferRecord {
  const record: OfferRecord = {
    _id: meta.id,
    name: input.name,
    priceCents: priceToCents(input.price),
    currency: meta.currency,
    frequency: input.frequency,
    trialPeriod: input.trialPeriod ?? 0,
    published: input.published ?? true,
    imageIds: input.imageIds ?? [],
    testMode: meta.testMode,
    createdAt: meta.now,
    updatedAt: meta.now,
  };
  if (input.usagePricing !== undefined) record.usagePricing = usagePricing(input.usagePricing, undefined);
  if (input.description != null) record.description = input.description;
  return record;
}

/** Partial update; `usagePricing` merges by part: sending only `meters` keeps the seats as they are. */
export function mergeOffer(current: OfferRecord, change: OfferUpdateInput, now: string): OfferRecord {
  const next: OfferRecord = { ...current, updatedAt: now };
  if (change.name !== undefined) next.name = change.name;
  if (change.price !== undefined) next.priceCents = priceToCents(change.price);
  if (change.frequency !== undefined) next.frequency = change.frequency;
  if (change.trialPeriod !== undefined) next.trialPeriod = change.trialPeriod;
  if (change.published !== undefined) next.published = change.published;
  if (change.imageIds !== undefined) next.imageIds = change.imageIds;
  if (change.description === null) delete next.description;
  else if (change.description !== undefined) next.description = change.description;
  if (change.usagePricing === null) delete next.usagePricing;
  else if (change.usagePricing !== undefined) next.usagePricing = usagePricing(change.usagePricing, current.usagePricing);
  return next;
}

export function toOfferView(record: OfferRecord): OfferView {
  const pricing = usagePricing(undefined, record.usagePricing);
  return {
    _id: record._id,
    name: record.name,
    description: record.description ?? null,
    price: centsToPrice(record.priceCents),
    currency: record.currency,
    frequency: record.frequency,
    trialPeriod: record.trialPeriod ?? 0,
    usagePricing: { seats: pricing.seats as OfferView['usagePricing']['seats'], meters: pricing.meters as Record<string, unknown>[] },
    published: record.published,
    imageIds: record.imageIds ?? [],
    testMode: record.testMode,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
