import type { PrivacyPart } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import { filesOfProduct, grantOf } from './repository';

/**
 * The buyer's downloads: per one-time order, the files it delivers (name, size), how many
 * downloads it used and whether access ended. Export only: none of it names the buyer (signed
 * links expire within the hour and hold no address), so an erasure has nothing to take here.
 */
const downloadsPart: PrivacyPart = {
  name: 'downloads',
  async *export(deps, scope, subject) {
    const files = new Map<string, { name: string; size: number }[]>();
    const filesOf = async (productId: string) => {
      if (!files.has(productId))
        files.set(
          productId,
          (await filesOfProduct(deps.store, scope, productId)).map((f) => ({ name: f.name, size: f.size })),
        );
      return files.get(productId)!;
    };
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const page = [];
      for (const sale of sales.filter((s) => s.type === 'one_time')) {
        const productIds = sale.lines?.length ? sale.lines.map((l) => l.productId) : [sale.productId];
        const delivered = (await Promise.all(productIds.map(filesOf))).flat();
        if (!delivered.length) continue;
        const grant = await grantOf(deps.store, scope, sale._id);
        page.push({
          orderId: sale._id,
          files: delivered,
          downloadsUsed: grant?.used ?? 0,
          accessEndedAt: grant?.revokedAt ?? null,
          accessEndedBecause: grant?.revokedReason ?? null,
        });
      }
      if (page.length) yield page;
    }
  },
};

export const productFilesPrivacy: PrivacyPart[] = [downloadsPart];
