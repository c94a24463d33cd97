/** Schemas every storefront sub-capability uses; each keeps its own in <sub>/schemas.ts. */
import * as z from '../platform/zod';

/** Path ids are looked up, never pattern-checked: a malformed id answers 404 like a missing one. */
export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });

export const hasCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
/** An amount in USD major units (29.99), at most two decimals. */
export const usdAmount = z.number().check(z.minimum(0), z.maximum(1_000_000), z.refine(hasCents, 'must have at most two decimals'));
export const recordId = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
export const productIds = z.array(recordId).check(z.minLength(1, 'must name at least one product'), z.maxLength(100));
export const httpUrl = z.string().check(
  z.trim(),
  z.maxLength(2048),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL'),
);
export const isoDateTime = z.iso.datetime({ offset: true });
export const testMode = z.boolean();

/** What a delete answers. */
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
