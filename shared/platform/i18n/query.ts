import * as z from '../zod';

/** `?lang=` on a buyer page: the buyer's explicit choice (en, fr, de, es, pt-BR, ja; anything else is ignored). */
export const langQuery = z.object({
  lang: z.optional(
    z
      .string()
      .check(
        z.maxLength(35),
        z.describe("The page's language: en, fr, de, es, pt-BR or ja; otherwise the buyer's saved language, Accept-Language, the seller's default, English"),
      ),
  ),
});
