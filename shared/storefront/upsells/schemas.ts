import * as z from '../../platform/zod';
import { productIds, recordId, testMode, usdAmount } from '../schemas';

// ---- upsells ----
const upsellFields = {
  name: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  mainProductIds: productIds,
  upsellProductId: recordId,
  upsellPrice: usdAmount,
};
export const createUpsellBody = z.object({ ...upsellFields, name: z.optional(upsellFields.name) });
export const updateUpsellBody = z.partial(z.object(upsellFields));
export type UpsellInput = z.output<typeof updateUpsellBody>;
export const upsellSchema = z.object({
  _id: z.string(),
  name: z.nullable(z.string()),
  mainProductIds: z.array(z.string()),
  upsellProductId: z.string(),
  upsellPrice: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
