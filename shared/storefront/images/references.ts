import type { Deps } from '../../platform/context';
import type { Scope } from '../../store/keys';
import type { ImageRecord } from './records';
import { loadImage } from './repository';

// Apart from service.ts, which touches blob storage: a function that only checks or shows
// references (the catalog's offer and product edits and the account's branding, run by usage and
// retention jobs too) then does not bundle the S3 client (shared/composition/function-entries.ts
// reads which ports each file names).

/** The ids of `ids` that are no image of this tenant and mode (the catalog checks references with it). */
export async function missingImageIds(deps: Pick<Deps, 'store'>, scope: Scope, ids: string[]): Promise<string[]> {
  const found = await Promise.all(ids.map((id) => loadImage(deps.store, scope, id)));
  return ids.filter((_, i) => !found[i]);
}

export const imageUrl = (baseUrl: string, image: Pick<ImageRecord, 'fileToken'>) => `${baseUrl}/images/file/${image.fileToken}`;

/** The public address of one image by id, or null when the tenant has no such image. */
export async function imageUrlById(deps: Pick<Deps, 'store'>, scope: Scope, id: string, baseUrl: string): Promise<string | null> {
  const image = await loadImage(deps.store, scope, id);
  return image ? imageUrl(baseUrl, image) : null;
}
