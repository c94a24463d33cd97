import * as z from '../platform/zod';
import { OBJECT_ID } from '../platform/ids';
import { MAX_NAME_LENGTH } from './copy-name';
import { MAX_PRICE, priceProblem } from './pricing';

// Input schemas check shape and single-field rules; rules between fields (credit fields only on
// credits products, a pay-what-you-want minimum not above the price) run on the merged record in
// rules.ts, so create and partial update share them.

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`);

const nameSchema = z
  .string({ error: required('text') })
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`));

// A multipart form field that looks like a number arrives decoded as one; an offer called "2025"
// is still a name.
const formText = <S extends z.ZodMiniType<string>>(schema: S) => z.union([schema, z.pipe(z.number(), z.transform(String))]);

export const priceSchema = z.number({ error: required('a number (USD, for example 29.99)') }).check(
  z.superRefine((price, ctx) => {
    const problem = priceProblem(price);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  z.describe(`Price in USD major units (29.99), 0 to ${MAX_PRICE}, at most 2 decimals`),
);

const objectIdSchema = z.string().check(z.regex(OBJECT_ID, 'must be a 24-hex id'));
const descriptionSchema = z.string({ error: required('text') }).check(z.maxLength(5000, 'must be at most 5000 characters'));
export const MAX_IMAGES = 20;
const imageIdsSchema = z.array(objectIdSchema).check(z.maxLength(MAX_IMAGES, `at most ${MAX_IMAGES} images`));

export const creditAutoRefillInput = z.object(
  {
    enabled: z.boolean({ error: required('true or false') }),
    topOffCents: z
      .number({ error: required('an integer number of cents') })
      .check(z.int('must be an integer number of cents'), z.minimum(0, 'must be 0 or more'), z.maximum(100_000_000)),
  },
  { error: required('an object { enabled, topOffCents }') },
);

const payWhatYouWantInput = z.union(
  [
    z.boolean(),
    z.object({
      enabled: z.boolean({ error: required('true or false') }),
      minimumPrice: z.optional(priceSchema).check(z.describe('Lowest price a buyer may choose, USD; 0 unless stated')),
    }),
  ],
  { error: 'must be true, false or { enabled, minimumPrice }' },
);

export const MAX_ACTIVATION_LIMIT = 1000;
export const licenseKeysInput = z.object(
  {
    enabled: z.boolean({ error: required('true or false') }),
    activationLimit: z._default(
      z
        .number({ error: required('an integer') })
        .check(z.int('must be an integer'), z.minimum(1, 'must be at least 1'), z.maximum(MAX_ACTIVATION_LIMIT, `must be at most ${MAX_ACTIVATION_LIMIT}`)),
      1,
    ),
    expiresInDays: z.optional(
      z.nullable(
        z
          .number({ error: required('an integer number of days') })
          .check(z.int('must be an integer number of days'), z.minimum(1, 'must be at least 1'), z.maximum(36500, 'must be at most 36500')),
      ),
    ),
  },
  { error: required('an object { enabled, activationLimit, expiresInDays? }') },
);
const downloadLimitSchema = z
  .number({ error: required('an integer') })
  .check(z.int('must be an integer'), z.minimum(1, 'must be at least 1'), z.maximum(10_000, 'must be at most 10000'));
const fileTypesSchema = z
  .array(z.string().check(z.trim(), z.toLowerCase(), z.regex(/^\.[a-z0-9]{1,10}$/, 'each type is a file extension such as .dmg')))
  .check(z.maxLength(50, 'at most 50 types'));

const productTypeSchema = z.enum(['digital', 'credits'], { error: 'must be digital or credits' });

export const productCreateBody = z.object({
  name: nameSchema,
  price: priceSchema,
  description: z.optional(z.nullable(descriptionSchema)),
  productType: z.optional(productTypeSchema).check(z.describe('digital (default) or credits')),
  creditAmount: z
    .optional(z.number().check(z.int('must be an integer'), z.minimum(1, 'must be at least 1')))
    .check(z.describe('Credits granted per purchase (credits products)')),
  creditAutoRefill: z.optional(creditAutoRefillInput).check(z.describe('Credits products only: { enabled, topOffCents }')),
  payWhatYouWant: z.optional(payWhatYouWantInput),
  published: z.optional(z.boolean({ error: 'must be true or false' })).check(z.describe('true unless stated')),
  refundPolicyId: z.optional(z.nullable(objectIdSchema)),
  imageIds: z.optional(imageIdsSchema),
  licenseKeys: z.optional(licenseKeysInput).check(z.describe('A licence key per paid order: { enabled, activationLimit (1 unless stated), expiresInDays? }')),
  downloadLimit: z
    .optional(z.nullable(downloadLimitSchema))
    .check(z.describe('Downloads one order may make of the files (each file counts); unlimited when null')),
  allowedFileTypes: z.optional(fileTypesSchema).check(z.describe('Extensions allowed for uploads beyond the deliverable types, such as [".dmg", ".exe"]')),
});

/** Partial update: every field optional; null clears the optional ones. */
export const productUpdateBody = z.object({
  name: z.optional(nameSchema),
  price: z.optional(priceSchema),
  description: z.optional(z.nullable(descriptionSchema)),
  productType: z.optional(productTypeSchema),
  creditAmount: z.optional(z.nullable(z.number().check(z.int('must be an integer'), z.minimum(1, 'must be at least 1')))),
  creditAutoRefill: z.optional(z.nullable(creditAutoRefillInput)),
  payWhatYouWant: z.optional(payWhatYouWantInput),
  published: z.optional(z.boolean({ error: 'must be true or false' })),
  refundPolicyId: z.optional(z.nullable(objectIdSchema)),
  imageIds: z.optional(imageIdsSchema),
  licenseKeys: z.optional(z.nullable(licenseKeysInput)),
  downloadLimit: z.optional(z.nullable(downloadLimitSchema)),
  allowedFileTypes: z.optional(z.nullable(fileTypesSchema)),
});

export const productCopyBody = z.object({
  testMode: z.optional(z.boolean({ error: 'must be true or false' })).check(z.describe('false from a test key copies the test product into live mode')),
});

export type ProductCreateInput = z.output<typeof productCreateBody>;
export type ProductUpdateInput = z.output<typeof productUpdateBody>;

export const MAX_METERS = 5;

// Meter and seat fields belong to usage billing (document 2); here only their shape as objects and
// the limit of five meters are checked, and the objects are kept as sent.
export const usagePricingInput = z.object(
  {
    seats: z.optional(z.looseObject({ enabled: z.boolean({ error: required('true or false') }) }, { error: required('an object { enabled, ... }') })),
    meters: z.optional(
      z
        .array(z.looseObject({}, { error: 'each meter must be an object' }), { error: required('an array of meter objects') })
        .check(z.maxLength(MAX_METERS, `at most ${MAX_METERS} meters per offer`)),
    ),
  },
  { error: required('an object { seats, meters }') },
);

const frequencySchema = z.enum(['weekly', 'monthly', 'yearly'], { error: required('weekly, monthly or yearly') });
const trialPeriodSchema = z
  .number({ error: required('an integer number of days') })
  .check(z.int('must be an integer number of days'), z.minimum(0, 'must be 0 or more'), z.maximum(730, 'must be at most 730 days'));

export const offerCreateBody = z.object({
  name: formText(nameSchema),
  price: priceSchema,
  frequency: frequencySchema,
  trialPeriod: z.optional(trialPeriodSchema).check(z.describe('Trial days; 0 unless stated')),
  usagePricing: z.optional(usagePricingInput),
  description: z.optional(z.nullable(formText(descriptionSchema))),
  published: z.optional(z.boolean({ error: 'must be true or false' })).check(z.describe('true unless stated')),
  imageIds: z.optional(imageIdsSchema),
});

export const offerUpdateBody = z.object({
  name: z.optional(nameSchema),
  price: z.optional(priceSchema),
  frequency: z.optional(frequencySchema),
  trialPeriod: z.optional(trialPeriodSchema),
  usagePricing: z.optional(z.nullable(usagePricingInput)),
  description: z.optional(z.nullable(descriptionSchema)),
  published: z.optional(z.boolean({ error: 'must be true or false' })),
  imageIds: z.optional(imageIdsSchema),
});

export type OfferCreateInput = z.output<typeof offerCreateBody>;
export type OfferUpdateInput = z.output<typeof offerUpdateBody>;

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

// ---- answers ----

const common = {
  _id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  price: z.number().check(z.describe('USD major units')),
  currency: z.string(),
  published: z.boolean(),
  imageIds: z.array(z.string()),
  testMode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const productSchema = z.object({
  ...common,
  productType: z.string(),
  creditAmount: z.optional(z.number().check(z.int())),
  creditAutoRefill: z.optional(z.object({ enabled: z.boolean(), topOffCents: z.number().check(z.int()) })),
  payWhatYouWant: z.object({ enabled: z.boolean(), minimumPrice: z.number() }),
  refundPolicyId: z.nullable(z.string()),
  licenseKeys: z.optional(z.object({ enabled: z.boolean(), activationLimit: z.number().check(z.int()), expiresInDays: z.nullable(z.number().check(z.int())) })),
  downloadLimit: z.optional(z.number().check(z.int())),
  allowedFileTypes: z.optional(z.array(z.string())),
  buyPath: z.string().check(z.describe('The public buy link, after the API base address (GET /buy/{id}): put it in a bio or a post; it opens a checkout')),
});

export const offerSchema = z.object({
  ...common,
  frequency: z.enum(['weekly', 'monthly', 'yearly']),
  trialPeriod: z.number().check(z.int()),
  usagePricing: z.object({
    seats: z.looseObject({ enabled: z.boolean() }),
    meters: z.array(z.record(z.string(), z.unknown())),
  }),
});

export type ProductView = z.input<typeof productSchema>;
export type OfferView = z.input<typeof offerSchema>;

export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
