import type { Capability } from '../platform/capability';
import { saveOffersOnCancel } from './save-offers';

/**
 * The ports this capability provides, apart from its manifest so that a function which only uses
 * them (the buyer portal's cancel) bundles neither the retention consumers nor their mail.
 */
export const ports: NonNullable<Capability['ports']> = {
  // The buyer portal (shared/subscriptions/) asks this port for save offers before a cancel.
  subscriptionSaveOffers: { aws: () => saveOffersOnCancel, local: () => saveOffersOnCancel },
};
