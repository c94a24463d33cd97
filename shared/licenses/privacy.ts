import type { PrivacyPart } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import { licenseEmailErasure, licensesOfOrder } from './repository';
import { keysOfOrder } from './service';

const IN_FLIGHT = 16;

/**
 * The buyer's licence keys, found by their orders: the keys in full (they are the buyer's), with
 * status and activations. Erasure takes the address off each licence; the key itself keeps
 * working (the buyer paid for it, and the seller's app checks it by key, never by person).
 */
const licensesPart: PrivacyPart = {
  name: 'licenseKeys',
  async *export(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const page = [];
      // One query per order, IN_FLIGHT at a time (a buyer with 10,000 orders is 10,000 queries).
      for (let i = 0; i < sales.length; i += IN_FLIGHT) {
        const perOrder = await Promise.all(
          sales.slice(i, i + IN_FLIGHT).map(async (sale) => (await keysOfOrder(deps, scope, sale._id)).map((key) => ({ orderId: sale._id, ...key }))),
        );
        page.push(...perOrder.flat());
      }
      if (page.length) yield page;
    }
  },
  async erase(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      for (let i = 0; i < sales.length; i += IN_FLIGHT) {
        const licenses = (await Promise.all(sales.slice(i, i + IN_FLIGHT).map((sale) => licensesOfOrder(deps.store, scope, sale._id)))).flat();
        for (const license of licenses) if (license.customerEmail) await licenseEmailErasure(deps.store, license);
      }
    }
  },
};

export const licensesPrivacy: PrivacyPart[] = [licensesPart];
