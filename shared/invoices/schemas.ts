import * as z from '../platform/zod';

export const orderParams = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const tokenParams = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(128)) });
export const languageQuery = z.strictObject({
  lang: z.optional(z.enum(['en', 'de', 'fr', 'es']).check(z.describe("The invoice's language; by default the buyer's country decides (English otherwise)"))),
});
