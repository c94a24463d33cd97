import { describe, expect, it } from 'vitest';
import { APP } from '../../shared/app';
import { authorize, operationAccess, permits, type Actor, type Area } from '../../shared/platform/permissions';

const member = (areas: Area[], role: 'owner' | 'admin' | 'member' = 'member'): Actor => ({
  type: 'member',
  memberId: 'm1',
  email: 'm@example.com',
  role,
  areas,
});

describe('team permissions', () => {
  it('maps every key operation of the registry to one access level', () => {
    const unmapped = APP.allOperations
      .filter(({ operation }) => operation.auth === 'key' && !operationAccess(operation))
      .map(({ operation }) => operation.operationId);
    expect(unmapped).toEqual([]);
  });

  it('resolves an explicit area before the tag, and the tag otherwise', () => {
    expect(operationAccess({ tags: ['Products'] })).toBe('products');
    expect(operationAccess({ tags: ['Orders'] })).toBe('orders');
    expect(operationAccess({ tags: ['Webhooks'] })).toBe('developers');
    expect(operationAccess({ tags: ['Team'] })).toBe('admin');
    expect(operationAccess({ area: 'analytics', tags: ['Products'] })).toBe('analytics');
    expect(operationAccess({ tags: ['Something new'] })).toBeUndefined();
  });

  it('lets owners, admins and keys do everything and members only their areas', () => {
    expect(permits({ type: 'owner_key' }, 'admin')).toBe(true);
    expect(permits(member([], 'owner'), 'admin')).toBe(true);
    expect(permits(member([], 'admin'), 'developers')).toBe(true);
    expect(permits(member([], 'admin'), undefined)).toBe(true);
    expect(permits(member(['products']), 'products')).toBe(true);
    expect(permits(member(['products']), 'orders')).toBe(false);
    expect(permits(member(['products', 'orders']), 'orders')).toBe(true);
    expect(permits(member(['products']), 'admin')).toBe(false);
    expect(permits(member([]), 'any')).toBe(true);
    // An operation with no area is closed to members (fail closed).
    expect(permits(member(['products', 'orders', 'emails', 'marketing', 'analytics', 'developers']), undefined)).toBe(false);
  });

  it('refuses with 403 AREA_FORBIDDEN naming the area', () => {
    let caught: any;
    try {
      authorize(member(['products']), { operationId: 'listOrders', tags: ['Orders'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 403, code: 'AREA_FORBIDDEN', details: { area: 'orders', role: 'member' } });
    expect(() => authorize(member(['orders']), { operationId: 'listOrders', tags: ['Orders'] })).not.toThrow();
  });
});
