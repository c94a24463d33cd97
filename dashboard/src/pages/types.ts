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

/**
 * The nav's sections, in order: seven, as a seller thinks of the store (a group not named here
 * comes after these). A section with one page is a plain link; the others fold open.
 */
export const GROUP_ORDER = ['Home', 'Products', 'Sales', 'Audience', 'Growth', 'Settings', 'Developers'];
