import * as z from '../../platform/zod';
import { locateSessionById, paymentClaim, withMarketingConsent } from '../../checkout/service';
import type { ControlRoute, LocalRuntimeHandle } from '../../platform/capability';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { parseOrThrow } from '../../platform/http/validation';
import { ProcessorError } from '../../processor/port';
import { locateSaleById, saleForControl } from '../../sales/service';
import { locateSubscriberById } from '../../subscriptions/service';
import { getSessionPointer } from './repository';
import { SandboxProcessor } from './sandbox';

/**
 * The local runtime's control routes that drive the sandbox processor (docs/architecture.md, "The local runtime"). They
 * find sessions, subscribers and sales through those capabilities' service functions.
 */
const payBody = z.object({
  email: z.string().check(z.trim(), z.email('email must be a valid email address')),
  firstName: z.optional(z.string().check(z.maxLength(100))),
  lastName: z.optional(z.string().check(z.maxLength(100))),
  country: z.optional(z.string().check(z.maxLength(2))),
  card: z.optional(z.string().check(z.maxLength(40))),
  saveCard: z.optional(z.boolean()),
  /** The buyer ticks the newsletter opt-in box (counts only when the seller offers it). */
  marketingOptIn: z.optional(z.boolean()),
  /** A VAT number the buyer enters (reported on the order when the scope has a tax rate). */
  vatNumber: z.optional(z.string().check(z.trim(), z.minLength(2), z.maxLength(32))),
});
const renewBody = z.object({ outcome: z.enum(['succeed', 'fail']) });
const cardBody = z.object({ outcome: z.enum(['declines', 'pays']) });
const refundBody = z.object({ amountCents: z.optional(z.number().check(z.int(), z.positive())) });
const refuseBody = z.object({ operation: z.enum(['pause', 'resume', 'cancel', 'charge']) });

function sandbox(runtime: LocalRuntimeHandle): SandboxProcessor {
  const processor = runtime.deps.ports.processorSandbox;
  if (!(processor instanceof SandboxProcessor)) throw badRequest('The local runtime is not using the sandbox processor');
  return processor;
}

async function processorCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProcessorError) {
      if (error.code === 'not_found') throw notFound('Processor record');
      if (error.reason) throw conflict(error.message, error.reason);
      if (error.code === 'refused') throw conflict(error.message, 'PROCESSOR_REFUSED');
      throw badRequest(error.message);
    }
    throw error;
  }
}

export const SANDBOX_CONTROL_ROUTES: ControlRoute[] = [
  {
    method: 'POST',
    path: '/_local/checkout/{sessionId}/pay',
    async handle(runtime, { params, body }) {
      const input = parseOrThrow(payBody, body, 'body')!;
      const pointer = await getSessionPointer(runtime.deps.store, params.sessionId!);
      const known = pointer ? { accountId: pointer.accountId, mode: pointer.mode } : undefined;
      const located = await locateSessionById(runtime.deps, params.sessionId!, known);
      if (!located) throw notFound('Checkout session');
      const { session } = located;
      const claim = await withMarketingConsent(runtime.deps, located.scope, session._id, paymentClaim(located.scope, session), input.marketingOptIn === true);
      const buyer = { email: input.email, firstName: input.firstName, lastName: input.lastName, country: input.country, vatNumber: input.vatNumber };
      const result = await processorCall(() =>
        session.amountCents === 0
          ? sandbox(runtime).completeFreeCheckout(located.processorCheckoutId, buyer, claim)
          : sandbox(runtime).payCheckout(located.processorCheckoutId, { buyer, cardNumber: input.card, saveCard: input.saveCard, claim }),
      );
      if (result.status === 'declined') return { status: 200, body: { status: 'declined', failureMessage: result.failureMessage } };
      await runtime.settle();
      const after = (await locateSessionById(runtime.deps, session._id, located.scope))?.session;
      return {
        status: 200,
        body: { status: 'paid', ...(after?.saleId ? { saleId: after.saleId } : {}), ...(after?.subscriberId ? { subscriberId: after.subscriberId } : {}) },
      };
    },
  },
  {
    method: 'POST',
    path: '/_local/subscribers/{subscriberId}/renew',
    async handle(runtime, { params, body }) {
      const input = parseOrThrow(renewBody, body, 'body')!;
      const located = await locateSubscriberById(runtime.deps, params.subscriberId!);
      if (!located) throw notFound('Subscriber');
      const { scope, subscriber: sub } = located;
      if (!sub.membershipId) throw badRequest('This subscriber has no membership');
      await processorCall(() => sandbox(runtime).renewNow(scope, sub.membershipId!, input.outcome));
      await runtime.settle();
      const after = (await locateSubscriberById(runtime.deps, sub._id))?.subscriber;
      return { status: 200, body: { status: after?.status } };
    },
  },
  {
    method: 'POST',
    path: '/_local/subscribers/{subscriberId}/card',
    async handle(runtime, { params, body }) {
      const input = parseOrThrow(cardBody, body, 'body')!;
      const located = await locateSubscriberById(runtime.deps, params.subscriberId!);
      if (!located?.subscriber.membershipId) throw notFound('Subscriber');
      await processorCall(() => sandbox(runtime).setCardDeclining(located.scope, located.subscriber.membershipId!, input.outcome === 'declines'));
      return { status: 200, body: { outcome: input.outcome } };
    },
  },
  {
    method: 'POST',
    path: '/_local/sales/{saleId}/refund',
    async handle(runtime, { params, body }) {
      const input = parseOrThrow(refundBody, body, 'body')!;
      const scope = (await locateSaleById(runtime.deps, params.saleId!))?.scope;
      if (!scope) throw notFound('Sale');
      const sale = await saleForControl(runtime.deps, scope, params.saleId!);
      await processorCall(() => sandbox(runtime).refund(scope, sale.paymentIntentId!, input.amountCents));
      await runtime.settle();
      const after = (await locateSaleById(runtime.deps, sale._id))?.sale;
      return { status: 200, body: { status: after?.status, refundedCents: after?.refundedCents } };
    },
  },
  {
    method: 'POST',
    path: '/_local/sales/{saleId}/dispute',
    async handle(runtime, { params }) {
      const scope = (await locateSaleById(runtime.deps, params.saleId!))?.scope;
      if (!scope) throw notFound('Sale');
      const sale = await saleForControl(runtime.deps, scope, params.saleId!);
      await processorCall(() => sandbox(runtime).dispute(scope, sale.paymentIntentId!));
      await runtime.settle();
      const after = (await locateSaleById(runtime.deps, sale._id))?.sale;
      return { status: 200, body: { status: after?.status } };
    },
  },
  {
    method: 'POST',
    path: '/_local/processor/refuse-next',
    async handle(runtime, { body }) {
      const input = parseOrThrow(refuseBody, body, 'body')!;
      sandbox(runtime).refuseNext(input.operation);
      return { status: 200, body: { operation: input.operation } };
    },
  },
];
