import * as z from '../platform/zod';

export const productParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const fileParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), fileId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });

export const uploadFileBody = z.object({
  file: z.optional(z.unknown()).check(z.meta({ type: 'string', format: 'binary', description: "The file: a deliverable type (PDF, EPUB, ZIP, audio, video, images...) or one of the product's allowedFileTypes, within the plan's size" })),
});

export const fileSchema = z.object({ _id: z.string(), name: z.string(), size: z.number().check(z.int()), contentType: z.string(), createdAt: z.string() });

export const downloadSchema = z.object({ fileId: z.string(), name: z.string(), size: z.number().check(z.int()), url: z.string(), expiresAt: z.string() });
