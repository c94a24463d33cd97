import * as z from '../../platform/zod';

// ---- images ----
/** Documents the multipart file field; the file itself arrives in `files`, not in the fields. */
export const uploadImageBody = z.object({
  image: z.optional(z.unknown()).check(z.meta({ type: 'string', format: 'binary', description: 'The image file: PNG, JPEG, GIF or WebP, at most 5 MB' })),
  // The JSON form (MCP tools and clients without multipart): the same file as base64.
  filename: z.optional(z.string().check(z.minLength(1), z.maxLength(200))).check(z.describe('JSON form: the file name')),
  contentType: z.optional(z.string().check(z.maxLength(100))).check(z.describe('JSON form: image/png, image/jpeg, image/gif or image/webp')),
  contentBase64: z
    .optional(z.string().check(z.maxLength(7_000_000), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'contentBase64 is base64')))
    .check(z.describe("JSON form: the file's bytes, base64")),
});
export type UploadImageInput = z.infer<typeof uploadImageBody>;
export const imageSchema = z.object({
  _id: z.string(),
  url: z.string(),
  contentType: z.string(),
  size: z.number(),
  filename: z.string(),
  createdAt: z.string(),
});
export const imageFileParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(100)) });
