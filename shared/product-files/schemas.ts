import * as z from '../platform/zod';

export const productParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const fileParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), fileId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });

export const uploadFileBody = z.object({
  file: z.optional(z.unknown()).check(
    z.meta({
      type: 'string',
      format: 'binary',
      description: "The file: a deliverable type (PDF, EPUB, ZIP, audio, video, images...) or one of the product's allowedFileTypes, within the plan's size",
    }),
  ),
  // The JSON form (MCP tools and clients without multipart): the same file as base64.
  filename: z.optional(z.string().check(z.minLength(1), z.maxLength(200))).check(z.describe('JSON form: the file name, with its extension')),
  contentType: z.optional(z.string().check(z.maxLength(100))).check(z.describe("JSON form: the file's media type")),
  contentBase64: z
    .optional(z.string().check(z.maxLength(17_000_000), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'contentBase64 is base64')))
    .check(z.describe("JSON form: the file's bytes, base64")),
});

export const fileSchema = z.object({ _id: z.string(), name: z.string(), size: z.number().check(z.int()), contentType: z.string(), createdAt: z.string() });

export const downloadSchema = z.object({ fileId: z.string(), name: z.string(), size: z.number().check(z.int()), url: z.string(), expiresAt: z.string() });

export const uploadParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), uploadId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const beginUploadBody = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(200))
    .check(z.describe('The file name, with its extension (it decides the type)')),
  size: z
    .number({ error: "size is required: the file's length in bytes" })
    .check(z.int('size is a whole number of bytes'), z.nonnegative('size is a number of bytes'))
    .check(z.describe("The file's exact length in bytes; over the plan's limit is 413 before any byte moves")),
  contentType: z.optional(z.string().check(z.maxLength(100))).check(z.describe('The media type the client sees; a page or a program is refused')),
});

export const uploadAnswer = z.object({
  uploadId: z.string(),
  name: z.string(),
  size: z.number().check(z.int()),
  contentType: z.string(),
  partSize: z.number().check(z.int(), z.describe('Every part is this many bytes, the last one the rest')),
  parts: z.array(
    z.object({ partNumber: z.number().check(z.int()), url: z.string().check(z.describe("PUT the part's bytes here; keep the ETag header of the answer")) }),
  ),
  expiresAt: z.string().check(z.describe('The part URLs work until then')),
});

export const completeUploadBody = z.strictObject({
  parts: z
    .array(
      z.strictObject({ partNumber: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)), etag: z.string().check(z.minLength(1), z.maxLength(200)) }),
      { error: 'parts is required: every part with its ETag' },
    )
    .check(z.minLength(1, 'parts: name every part with its ETag'), z.maxLength(10_000), z.describe('Every part in order, with the ETag its PUT answered')),
});
