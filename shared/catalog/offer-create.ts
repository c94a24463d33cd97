import { badRequest } from '../platform/errors';
import type { UploadedFile } from '../platform/operation';
import { deleteImage, uploadImage } from '../storefront/images';
import { offerWrites } from './repository';
import { buildOffer, toOfferView } from './rules';
import { MAX_IMAGES, type OfferCreateInput, type OfferView } from './schemas';
import { checkReferences, meta, type CatalogCtx } from './service';

// The one catalog write that touches blob storage (an uploaded image), kept apart from service.ts:
// the capabilities that update offers or read the catalog (usage, retention, subscriptions jobs)
// then do not bundle the S3 client.

export async function createOffer(ctx: CatalogCtx, input: OfferCreateInput, files: Record<string, UploadedFile[]> = {}): Promise<OfferView> {
  const record = buildOffer(input, meta(ctx));
  await checkReferences(ctx, input);
  const withFile = Object.keys(files).length > 0;
  if (withFile && record.imageIds!.length >= MAX_IMAGES)
    throw badRequest(`imageIds: at most ${MAX_IMAGES} images, the uploaded one included`, { field: 'imageIds' });
  // An uploaded file becomes a storefront image (checked, stored in blob storage, listed under
  // /images) before the offer is written, so a saved offer never points at a missing image.
  const image = withFile ? await uploadImage(ctx, ctx.scope, files) : undefined;
  if (image) record.imageIds = [...record.imageIds!, image._id];
  try {
    await ctx.store.transact([offerWrites.create(ctx.scope, record)]);
  } catch (error) {
    if (image) await deleteImage(ctx, ctx.scope, image._id).catch(() => undefined);
    throw error;
  }
  return toOfferView(record);
}
