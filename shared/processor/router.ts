import type { Deps } from '../platform/context';
import { conflict } from '../platform/errors';
import type { Scope } from '../store/keys';
import type { Buyer, CreateCheckoutInput, MembershipAdjustment, MembershipChargeInput, PayInput, PaymentClaim, ProcessorPort, RecoveryPolicy } from './port';
export type { ScopedProcessorProvider } from './port';
import { decryptProcessorSecrets, getProcessorSettings, type ProcessorProviderName, type TaxSettings } from './settings';

export interface RouterOptions {
  /**
   * What a live scope without settings gets: the sandbox (local runtime, so a laptop needs no
   * provider account) or a 409 PROCESSOR_NOT_CONFIGURED (a deployed stack never fakes live money).
   */
  unconfiguredLive: 'sandbox' | 'refuse';
  /**
   * Whether the sandbox may serve live mode at all. Only the local runtime allows it: a deployed
   * stack never fakes live money, not even for a scope whose settings name the sandbox.
   */
  sandboxLive: boolean;
  /** How long a scope's choice (and its decrypted secrets) is kept in memory. */
  cacheMs?: number;
}

/** A scope's provider, its port and the tax of its settings (CreateCheckoutInput.tax). */
type Pick = { name: ProcessorProviderName | 'none'; port?: ProcessorPort; tax?: TaxSettings | null };

export const notConfigured = () =>
  conflict(
    'No payment processor is configured for live mode: run `npm run admin -- set-processor --mode live --provider stripe ...`',
    'PROCESSOR_NOT_CONFIGURED',
  );

/**
 * `deps.ports.processor`: picks the provider of each account+mode from its processor settings
 * (settings.ts) and forwards the call. Calls without a scope (the sandbox's hosted page, its
 * notification signatures) belong to the sandbox, the only provider with a page and an ingress of
 * its own kind; providers with their own webhook route verify there.
 */
export class ProcessorRouter implements ProcessorPort {
  private readonly cache = new Map<string, { at: number; pick: Promise<Pick> }>();

  constructor(
    private readonly deps: Deps,
    private readonly options: RouterOptions,
  ) {}

  private get sandbox(): ProcessorPort {
    return this.deps.ports.processorSandbox;
  }

  /** Forgets cached choices (after the settings of a scope changed in this process). */
  forget(scope?: Scope) {
    if (scope) this.cache.delete(`${scope.accountId}#${scope.mode}`);
    else this.cache.clear();
  }

  private pick(scope: Scope) {
    const key = `${scope.accountId}#${scope.mode}`;
    const now = this.deps.clock.nowMs();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < (this.options.cacheMs ?? 30_000) && now >= hit.at) return hit.pick;
    const pick = this.resolve(scope);
    this.cache.set(key, { at: now, pick });
    pick.catch(() => this.cache.delete(key));
    return pick;
  }

  private async resolve(scope: Scope): Promise<Pick> {
    const settings = await getProcessorSettings(this.deps.store, scope);
    if (settings?.provider === 'stripe') {
      const stripe = this.deps.ports.processorStripe;
      if (!stripe) return { name: 'none' };
      return {
        name: 'stripe',
        port: stripe.forScope(scope, await decryptProcessorSecrets(this.deps.ports.encryption, scope, settings)),
        tax: settings.tax ?? null,
      };
    }
    if (scope.mode === 'live' && !this.options.sandboxLive) return { name: 'none' };
    if (settings?.provider === 'sandbox' || scope.mode === 'test' || this.options.unconfiguredLive === 'sandbox')
      return { name: 'sandbox', port: this.sandbox, tax: settings?.provider === 'sandbox' ? (settings.tax ?? null) : null };
    return { name: 'none' };
  }

  /** The provider a scope uses now (`GET /users/me`). */
  async providerOf(scope: Scope): Promise<ProcessorProviderName | 'none'> {
    return (await this.pick(scope)).name;
  }

  private async port(scope: Scope): Promise<ProcessorPort> {
    const { port } = await this.pick(scope);
    if (!port) throw notConfigured();
    return port;
  }

  async createCheckout(scope: Scope, input: CreateCheckoutInput) {
    const { port, tax } = await this.pick(scope);
    if (!port) throw notConfigured();
    return port.createCheckout(scope, { ...input, tax: tax ?? null });
  }
  payCheckout(checkoutId: string, input: PayInput) {
    return this.sandbox.payCheckout(checkoutId, input);
  }
  completeFreeCheckout(checkoutId: string, buyer: Buyer, claim?: PaymentClaim) {
    return this.sandbox.completeFreeCheckout(checkoutId, buyer, claim);
  }
  async chargeSavedCard(scope: Scope, input: Parameters<ProcessorPort['chargeSavedCard']>[1]) {
    return (await this.port(scope)).chargeSavedCard(scope, input);
  }
  // Every provider implements the whole port (usage, retention, recovery, credits): the router
  // only picks one and forwards, so no feature depends on which processor an account uses.
  async chargeMembership(scope: Scope, membershipId: string, input: MembershipChargeInput) {
    return (await this.port(scope)).chargeMembership(scope, membershipId, input);
  }
  async detachSavedCard(scope: Scope, paymentMethodId: string) {
    return (await this.port(scope)).detachSavedCard(scope, paymentMethodId);
  }
  async eraseBuyer(scope: Scope, buyer: { email: string; paymentMethodIds: string[] }): Promise<void> {
    await (await this.port(scope)).eraseBuyer(scope, buyer);
  }
  async cardUpdateSession(scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }) {
    return (await this.port(scope)).cardUpdateSession(scope, membershipId, input);
  }
  async pauseMembership(scope: Scope, membershipId: string) {
    return (await this.port(scope)).pauseMembership(scope, membershipId);
  }
  async resumeMembership(scope: Scope, membershipId: string) {
    return (await this.port(scope)).resumeMembership(scope, membershipId);
  }
  async cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }) {
    return (await this.port(scope)).cancelMembership(scope, membershipId, options);
  }
  async refund(scope: Scope, paymentId: string, amountCents?: number) {
    return (await this.port(scope)).refund(scope, paymentId, amountCents);
  }
  async dispute(scope: Scope, paymentId: string) {
    return (await this.port(scope)).dispute(scope, paymentId);
  }
  async getMembership(scope: Scope, membershipId: string) {
    return (await this.port(scope)).getMembership(scope, membershipId);
  }
  async getPayment(scope: Scope, paymentId: string) {
    return (await this.port(scope)).getPayment(scope, paymentId);
  }
  /** A live scope with no processor configured has no renewals to recover: there is nothing to set. */
  async setRecoveryPolicy(scope: Scope, policy: RecoveryPolicy | null) {
    const { port } = await this.pick(scope);
    await port?.setRecoveryPolicy(scope, policy);
  }
  async adjustMembership(scope: Scope, membershipId: string, change: MembershipAdjustment) {
    return (await this.port(scope)).adjustMembership(scope, membershipId, change);
  }
  verifyNotification(headers: Record<string, string>, rawBody: string, nowSeconds: number) {
    return this.sandbox.verifyNotification(headers, rawBody, nowSeconds);
  }
}
