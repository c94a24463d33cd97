import type { Deps } from '../platform/context';
import type { PrivacyPart, PrivacySubject } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import type { Scope } from '../store/keys';
import type { CreditAccountRecord } from './records';
import { creditAccountErasure, findCreditAccount } from './repository';

/** The buyer's credit accounts: one per credits product they bought, found by product and address. */
async function* accountsOf(deps: Deps, scope: Scope, subject: PrivacySubject): AsyncIterable<CreditAccountRecord[]> {
  const seen = new Set<string>();
  for await (const sales of salesOf(deps, scope, subject.customerId)) {
    const products = [...new Set(sales.map((s) => s.productId).filter((id): id is string => Boolean(id) && !seen.has(id!)))];
    for (const id of products) seen.add(id);
    const accounts = (await Promise.all(products.map((productId) => findCreditAccount(deps.store, scope, productId, subject.email)))).filter(
      (a): a is CreditAccountRecord => Boolean(a),
    );
    if (accounts.length) yield accounts;
  }
}

/** Credits: balances, auto top-up consent; erased as creditAccountErasure says. */
const creditsPart: PrivacyPart = {
  name: 'credits',
  export: (deps, scope, subject) => accountsOf(deps, scope, subject),
  async erase(deps, scope, subject) {
    const at = deps.clock.now().toISOString();
    for await (const accounts of accountsOf(deps, scope, subject)) {
      for (const account of accounts) await deps.store.transact(creditAccountErasure(scope, account, at));
    }
  },
};

export const creditsPrivacy: PrivacyPart[] = [creditsPart];
