import type { ReactNode } from 'react';

/** The areas of shared/platform/permissions.ts, plus `admin` (owners and admins only) and `any`. */
export type PageArea = 'products' | 'orders' | 'emails' | 'marketing' | 'analytics' | 'developers' | 'admin' | 'any';

/**
 * One page of the dashboard. `path` is relative to /dashboard ('' is home, `products/:id`);
 * `group` is the nav section; `nav: false` keeps a detail page out of the nav.
 */
export interface PageDefinition {
  path: string;
  title: string;
  area: PageArea;
  group: string;
  element: ReactNode;
  nav?: boolean;
}

/** The nav's section order; a group not named here comes after these, in registry order. */
export const GROUP_ORDER = ['Overview', 'Products', 'Sales', 'Customers', 'Marketing', 'Email', 'Growth', 'Analytics', 'Team', 'Developers'];
