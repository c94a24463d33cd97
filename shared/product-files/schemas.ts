import * as z from '../platform/zod';

export const productParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const fileParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), fileId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });

export const uploadFileBody = z.object({
  file: z.optional(z.unknown()).check(z.meta({ type: 'string', format: 'binary', description: "The file: a deliverable type (PDF, EPUB, ZIP, audio, video, images...) or one of the product's allowedFileTypes, within the plan's size" })),
  // The JSON form (MCP tools and clients without multipart): the same file as base64.
  filename: z.optional(z.string().check(z.minLength(1), z.maxLength(200))).check(z.describe('JSON form: the file name, with its extension')),
  contentType: z.optional(z.string().check(z.maxLength(100))).check(z.describe('JSON form: the file\'s media type')),
  contentBase64: z.optional(z.string().check(z.maxLength(17_000_000), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'contentBase64 is base64'))).check(z.describe("JSON form: the file's bytes, base64")),
});

export const fileSchema = z.object({ _id: z.string(), name: z.string(), size: z.number().check(z.int()), contentType: z.string(), createdAt: z.string() });

export const downloadSchema = z.object({ fileId: z.string(), name: z.string(), size: z.number().check(z.int()), url: z.string(), expiresAt: z.string() });
