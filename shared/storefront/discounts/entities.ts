import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { DISCOUNT, type DiscountRecord } from './records';

const DISCOUNT_CODE = 'DISCOUNT_CODE';
const discountKey = (scope: Scope, id: string) => keys.entity(scope, DISCOUNT, id);
const codeKey = (scope: Scope, normalizedCode: string) => keys.unique(scope, DISCOUNT_CODE, normalizedCode);

export const discountEntity = defineEntity<DiscountRecord>()({
  entity: 'Discount',
  version: 1,
  owner: 'storefront/discounts',
  key: discountKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Discount by id', key: discountKey, args: ['scope', 'id'] },
    ofTenant: {
      kind: 'query',
      summary: 'Discounts of a tenant (list, check-product)',
      partition: (scope: Scope) => keys.collection(scope, DISCOUNT),
      args: ['scope'],
      notes: 'bounded per-tenant list',
    },
  },
});

/** The code guard: one discount per (upper-cased) code in a tenant and mode. */
export const discountCodeEntity = defineEntity<{ discountId: string }>()({
  entity: 'DiscountCode',
  version: 1,
  owner: 'storefront/discounts',
  key: codeKey,
  keyArgs: ['scope', 'UPPER(code)'],
  patterns: {
    byCode: {
      kind: 'get',
      summary: 'Discount by code (case-insensitive) / code uniqueness',
      key: codeKey,
      args: ['scope', 'UPPER(code)'],
      notes: 'holds discountId; written with the discount in one transaction',
    },
  },
});
