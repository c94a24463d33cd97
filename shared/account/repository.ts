import type { Scope } from '../store/keys';
import type { Store } from '../store/store';
import { brandingEntity, type BrandingRecord } from './entities';

export const loadBranding = (store: Store, scope: Scope) => brandingEntity.get(store, 'ofTenant', scope);

export const saveBranding = (store: Store, scope: Scope, record: BrandingRecord) =>
  store.put(brandingEntity.item(brandingEntity.declaration.key(scope), record));
