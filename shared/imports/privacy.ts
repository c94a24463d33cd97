import type { Deps } from '../platform/context';
import type { PrivacyPart } from '../platform/privacy';
import type { Scope } from '../store/keys';
import {
  importedCustomerDelete,
  importedCustomerOf,
  importedOrderEmailErasure,
  importedOrdersOfPage,
  listImports,
  rowCellsErasure,
  rowsHoldingPage,
} from './repository';

async function* importedOrdersOf(deps: Deps, scope: Scope, email: string) {
  let cursor: string | undefined;
  do {
    const page = await importedOrdersOfPage(deps.store, scope, email, cursor);
    if (page.items.length) yield page.items;
    cursor = page.cursor;
  } while (cursor);
}

/**
 * What store imports brought in about the buyer: the imported customer (keyed by the address),
 * imported orders (purchase history, never sales) and the rows of the import reports. Erasure
 * deletes the imported customer, takes the address off imported orders (product, amount and date
 * stay) and empties the cells of every report row that held the address. The address's hash on the
 * do-not-recreate list keeps a later import from bringing it back.
 */
const importsPart: PrivacyPart = {
  name: 'imports',
  async *export(deps, scope, subject) {
    const customer = await importedCustomerOf(deps.store, scope, subject.email);
    if (customer) yield [{ kind: 'customer', ...customer }];
    for await (const orders of importedOrdersOf(deps, scope, subject.email)) yield orders.map((order) => ({ kind: 'order', ...order }));
  },
  async erase(deps, scope, subject) {
    if (await importedCustomerOf(deps.store, scope, subject.email)) await importedCustomerDelete(deps.store, scope, subject.email);
    for await (const orders of importedOrdersOf(deps, scope, subject.email)) {
      for (const order of orders) await importedOrderEmailErasure(deps.store, scope, order.key);
    }
    let jobs: string | undefined;
    do {
      const page = await listImports(deps.store, scope, { limit: 50, cursor: jobs });
      for (const job of page.items) {
        let rows: string | undefined;
        do {
          const held = await rowsHoldingPage(deps.store, scope, job._id, subject.email, rows);
          for (const row of held.rows) await rowCellsErasure(deps.store, scope, job._id, row);
          rows = held.cursor;
        } while (rows);
      }
      jobs = page.cursor;
    } while (jobs);
  },
};

export const importsPrivacy: PrivacyPart[] = [importsPart];
