import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';

export const BRANDING = 'BRANDING';

/** The seller's branding as stored, one record per account and mode. */
export interface BrandingRecord {
  displayName: string | null;
  logoImageId: string | null;
  accentColor: string | null;
  supportEmail: string | null;
  /** The language buyer pages and mails fall back to when the buyer's own is unknown. */
  locale?: string | null;
  /** The seller's legal identity, printed on invoices (absent on records written before invoices). */
  legalName?: string | null;
  legalAddress?: string | null;
  taxId?: string | null;
  updatedAt: string;
}

const brandingKey = (scope: Scope) => keys.entity(scope, BRANDING, 'branding');

export const brandingEntity = defineEntity<BrandingRecord>()({
  entity: 'Branding',
  version: 1,
  owner: 'account',
  key: brandingKey,
  keyArgs: ['scope'],
  patterns: {
    ofTenant: {
      kind: 'get',
      summary: 'The seller branding of an account and mode',
      key: brandingKey,
      args: ['scope'],
      notes: 'read by every buyer page and mail',
    },
  },
});
