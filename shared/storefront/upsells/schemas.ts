import * as z from 'zod';
import { productIds, recordId, testMode, usdAmount } from '../schemas';

// ---- upsells ----
const upsellFields = {
  name: z.string().trim().min(1).max(200).nullable(),
  mainProductIds: productIds,
  upsellProductId: recordId,
  upsellPrice: usdAmount,
};
export const createUpsellBody = z.object({ ...upsellFields, name: upsellFields.name.optional() });
export const updateUpsellBody = z.object(upsellFields).partial();
export type UpsellInput = z.output<typeof updateUpsellBody>;
export const upsellSchema = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  mainProductIds: z.array(z.string()),
  upsellProductId: z.string(),
  upsellPrice: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
