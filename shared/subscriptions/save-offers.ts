import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import type { SubscriberRecord } from './records';

/**
 * What the buyer portal asks before a cancel: the save offers of the subscriber's offer, and what
 * to do when the buyer accepts one or cancels anyway. The retention capability provides it as the
 * port `subscriptionSaveOffers` (its manifest's `ports`), so the portal needs no import of it;
 * without it the portal cancels at once, as before.
 */
export interface SaveOfferChoice {
  kind: 'pause' | 'discount';
  /** Pause: months to skip (1 to pauseMaxMonths). */
  months?: number;
}

export interface SaveOffersOnCancel {
  /** A pause of up to `pauseMaxMonths` months (null when not offered) and a discount, or null when the offer has none. */
  offersFor(
    deps: Deps,
    scope: Scope,
    sub: SubscriberRecord,
  ): Promise<{ pauseMaxMonths: number | null; discountPercent: number; discountMonths: number; discountedPrice: number; currency: string } | null>;
  /** Applies the accepted offer through the processor and records it (`subscription.saved`). */
  accept(deps: Deps, scope: Scope, sub: SubscriberRecord, choice: SaveOfferChoice, reason: string | null): Promise<void>;
  /** The buyer saw the offers and canceled anyway (for the report). */
  declined(deps: Deps, scope: Scope, sub: SubscriberRecord, reason: string | null): Promise<void>;
  /** The switch to yearly billing the portal prompts for (after enough payments), or null. */
  yearlySwitchFor?(
    deps: Deps,
    scope: Scope,
    sub: SubscriberRecord,
  ): Promise<{ percentOff: number; yearlyPrice: number; currency: string; accepted: boolean } | null>;
  /** The buyer accepts the switch: applied by the processor at the next period boundary. */
  acceptYearlySwitch?(deps: Deps, scope: Scope, sub: SubscriberRecord): Promise<void>;
  /** What the next renewal charges when retention changed it (a save discount, an intro price), in cents; null when it did not. */
  nextChargeCents?(deps: Deps, scope: Scope, sub: SubscriberRecord): Promise<number | null>;
}

declare module '../platform/ports' {
  interface Ports {
    /** Provided by shared/retention/ when it is in the app. */
    subscriptionSaveOffers?: SaveOffersOnCancel;
  }
}
