import type { Deps } from '../platform/context';
import type { PrivacyPart, PrivacySubject } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import type { SaleRecord } from '../sales/records';
import type { Scope } from '../store/keys';
import { licenseEmailErasure, licensePage, licensesOfOrder } from './repository';
import { keysOfOrder } from './service';

const IN_FLIGHT = 16;

/**
 * The buyer's orders that can hold keys, a page at a time: those with a product that ever issued
 * one (one query per distinct product, remembered for the whole export), so a buyer with 10,000
 * orders of products without keys costs no query per order.
 */
async function* ordersWithKeys(deps: Pick<Deps, 'store'>, scope: Scope, subject: PrivacySubject): AsyncIterable<SaleRecord[]> {
  const issued = new Map<string, Promise<boolean>>();
  const everIssued = (productId: string) => {
    let known = issued.get(productId);
    if (!known) {
      known = licensePage(deps.store, scope, { productId }, 1).then((page) => page.items.length > 0);
      issued.set(productId, known);
    }
    return known;
  };
  const productsOf = (sale: SaleRecord) =>
    (sale.lines?.length ? sale.lines.map((l) => l.productId) : [sale.productId]).filter((id): id is string => Boolean(id));
  for await (const sales of salesOf(deps, scope, subject.customerId)) {
    const keep = await Promise.all(sales.map(async (sale) => (await Promise.all(productsOf(sale).map(everIssued))).some(Boolean)));
    const page = sales.filter((_, i) => keep[i]);
    if (page.length) yield page;
  }
}

/**
 * The buyer's licence keys, found by their orders: the keys in full (they are the buyer's), with
 * status and activations. Erasure takes the address off each licence; the key itself keeps
 * working (the buyer paid for it, and the seller's app checks it by key, never by person).
 */
const licensesPart: PrivacyPart = {
  name: 'licenseKeys',
  async *export(deps, scope, subject) {
    for await (const sales of ordersWithKeys(deps, scope, subject)) {
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
    for await (const sales of ordersWithKeys(deps, scope, subject)) {
      for (let i = 0; i < sales.length; i += IN_FLIGHT) {
        const licenses = (await Promise.all(sales.slice(i, i + IN_FLIGHT).map((sale) => licensesOfOrder(deps.store, scope, sale._id)))).flat();
        for (const license of licenses) if (license.customerEmail) await licenseEmailErasure(deps.store, license);
      }
    }
  },
};

export const licensesPrivacy: PrivacyPart[] = [licensesPart];
