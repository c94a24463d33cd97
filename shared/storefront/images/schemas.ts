import * as z from '../../platform/zod';

// ---- images ----
/** Documents the multipart file field; the file itself arrives in `files`, not in the fields. */
export const uploadImageBody = z.object({
  image: z.optional(z.unknown()).check(z.meta({ type: 'string', format: 'binary', description: 'The image file: PNG, JPEG, GIF or WebP, at most 5 MB' })),
});
export const imageSchema = z.object({
  _id: z.string(),
  url: z.string(),
  contentType: z.string(),
  size: z.number(),
  filename: z.string(),
  createdAt: z.string(),
});
export const imageFileParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(100)) });
