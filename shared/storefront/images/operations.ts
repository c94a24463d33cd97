import * as z from '../../platform/zod';
import { defineOperation, rawReply } from '../../platform/operation';
import { deletedSchema, idParams } from '../schemas';
import { imageFileParams, imageSchema, uploadImageBody } from './schemas';
import { deleteImage, imageFiles, listImages, presentImage, readImageFile, uploadImage } from './service';
import { parseMultipart } from '../../platform/http/multipart';

export const imageOperations = [
  defineOperation({
    operationId: 'listImages',
    tool: 'list_images',
    summary: 'Uploaded images, newest first, with their public addresses',
    tags: ['Images'],
    method: 'GET',
    path: '/images',
    auth: 'key',
    output: z.array(imageSchema),
    handler: async (ctx) => (await listImages(ctx, ctx.scope)).map((image) => presentImage(ctx.request.baseUrl, image)),
  }),
  defineOperation({
    operationId: 'uploadImage',
    tool: 'upload_image',
    summary: 'Upload one image (multipart/form-data, file field `image`; or JSON { filename, contentType, contentBase64 })',
    description: "PNG, JPEG, GIF or WebP, at most 5 MB; the declared type must match the file's bytes. Any other file field answers 400 naming it.",
    tags: ['Images'],
    method: 'POST',
    path: '/images',
    auth: 'key',
    bodyType: 'json-or-multipart',
    multipart: parseMultipart,
    body: uploadImageBody,
    output: imageSchema,
    status: 201,
    handler: async (ctx, { body, files }) => presentImage(ctx.request.baseUrl, await uploadImage(ctx, ctx.scope, imageFiles(body, files))),
  }),
  defineOperation({
    operationId: 'deleteImage',
    tool: 'delete_image',
    summary: 'Delete an image and its file; its address stops working',
    tags: ['Images'],
    method: 'DELETE',
    path: '/images/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      await deleteImage(ctx, ctx.scope, params.id);
      return { _id: params.id, deleted: true as const };
    },
  }),
  defineOperation({
    operationId: 'getImageFile',
    summary: 'The bytes of an uploaded image (public; the address is the capability)',
    tags: ['Images'],
    method: 'GET',
    path: '/images/file/{token}',
    auth: 'public',
    params: imageFileParams,
    handler: async (ctx, { params }) => {
      const file = await readImageFile(ctx, params.token);
      return rawReply(200, file.body, file.contentType, { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' });
    },
  }),
];
