import type { PrivacyPart } from '../platform/privacy';
import { salesOf } from '../sales/privacy';

/**
 * The processor's own records of the buyer (the Stripe customer, the sandbox's cards), found
 * through the payment methods the buyer's orders used; the provider decides what it can erase
 * (port.ts `eraseBuyer`). It runs before the orders part, which takes the payment method off the
 * sales: the processor capability comes before sales in shared/app.ts, and a failing part stops
 * the run, so the orders part never runs first.
 */
const processorPart: PrivacyPart = {
  name: 'processorCustomer',
  async erase(deps, scope, subject) {
    const paymentMethodIds = new Set<string>();
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      for (const sale of sales) if (sale.paymentMethod?.id) paymentMethodIds.add(sale.paymentMethod.id);
    }
    if (deps.ports.processor.eraseBuyer) await deps.ports.processor.eraseBuyer(scope, { email: subject.email, paymentMethodIds: [...paymentMethodIds] });
  },
};

export const processorPrivacy: PrivacyPart[] = [processorPart];
