import type { PrivacyPart } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import { licenseEmailErasure, licensesOfOrder } from './repository';
import { keysOfOrder } from './service';

/**
 * The buyer's licence keys, found by their orders: the keys in full (they are the buyer's), with
 * status and activations. Erasure takes the address off each licence; the key itself keeps
 * working (the buyer paid for it, and the seller's app checks it by key, never by person).
 */
const licensesPart: PrivacyPart = {
  name: 'licenseKeys',
  async *export(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const perOrder = await Promise.all(sales.map(async (sale) => (await keysOfOrder(deps, scope, sale._id)).map((key) => ({ orderId: sale._id, ...key }))));
      const page = perOrder.flat();
      if (page.length) yield page;
    }
  },
  async erase(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      for (const sale of sales) {
        for (const license of await licensesOfOrder(deps.store, scope, sale._id)) {
          if (license.customerEmail) await licenseEmailErasure(deps.store, license);
        }
      }
    }
  },
};

export const licensesPrivacy: PrivacyPart[] = [licensesPart];
