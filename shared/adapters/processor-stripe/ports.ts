import type { Capability } from '../../platform/capability';
import type { Deps } from '../../platform/context';
import type { ProcessorPort, ScopedProcessorProvider } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { deferred } from '../aws/deferred/port';

/** Every method of the port the Stripe provider implements (all answer promises). */
const METHODS = [
  'createCheckout',
  'payCheckout',
  'completeFreeCheckout',
  'chargeSavedCard',
  'chargeMembership',
  'detachSavedCard',
  'cardUpdateSession',
  'eraseBuyer',
  'pauseMembership',
  'resumeMembership',
  'cancelMembership',
  'refund',
  'dispute',
  'getMembership',
  'getPayment',
  'verifyNotification',
  'setRecoveryPolicy',
  'adjustMembership',
] as const satisfies readonly (keyof ProcessorPort)[];

// Fails to compile when the port gains a required method this list does not forward.
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
const _complete: Exclude<RequiredKeys<ProcessorPort>, (typeof METHODS)[number]> extends never ? true : never = true;
void _complete;

/**
 * Builds the port on one seller's Stripe account from the secrets the router decrypted. The
 * adapter and the official SDK (240 KiB, about half the DynamoDB client's import cost) load on
 * the port's first call, from a chunk of their own, as the AWS ports do
 * (shared/adapters/aws/deferred/port.ts): most requests of the functions that wire the provider
 * (a subscriber list, a sale's refund in test mode) never reach Stripe.
 */
const provider = (deps: Deps): ScopedProcessorProvider => ({
  forScope: (scope: Scope, secrets: Record<string, string>) => {
    if (!secrets.secretKey) throw new Error('The Stripe settings of this account hold no secret key');
    const secretKey = secrets.secretKey;
    return deferred<ProcessorPort>(METHODS, async () => new (await import('./stripe')).StripeProcessor(deps, scope, secretKey));
  },
});

/**
 * The provider factory the processor's router uses (`ports.processorStripe`), apart from the
 * manifest so that a function which only calls the processor bundles no Stripe webhook route.
 */
export const ports: NonNullable<Capability['ports']> = { processorStripe: { aws: provider, local: provider } };
