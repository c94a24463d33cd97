import type { PageDefinition } from './types';
import { homePage } from './commerce/HomePage';
import { productsPage } from './commerce/ProductsPage';
import { membershipsPage } from './engage/MembershipsPage';
import { membershipDetailPage } from './engage/MembershipDetailPage';
import { funnelsPage } from './engage/FunnelsPage';
import { funnelDetailPage } from './engage/FunnelDetailPage';
import { retentionPage } from './engage/RetentionPage';
import { retentionOffersPage } from './engage/RetentionOffersPage';
import { retentionReportsPage } from './engage/RetentionReportsPage';
import { usagePage } from './engage/UsagePage';
import { usageReportPage } from './engage/UsageReportPage';
import { newsletterPostsPage } from './engage/NewsletterPostsPage';
import { newsletterPostPage } from './engage/NewsletterPostPage';
import { emailSettingsPage } from './engage/EmailSettingsPage';
import { suppressionsPage } from './engage/SuppressionsPage';
import { automationsPage } from './engage/AutomationsPage';

/**
 * Every page of the dashboard, one line each. A page module exports its PageDefinition; add the
 * import and the line here, nothing else of the shell. Order within a group is nav order.
 */
export const PAGES: PageDefinition[] = [
  homePage,
  productsPage,
  membershipsPage,
  membershipDetailPage,
  funnelsPage,
  funnelDetailPage,
  retentionPage,
  retentionOffersPage,
  retentionReportsPage,
  usagePage,
  usageReportPage,
  newsletterPostsPage,
  newsletterPostPage,
  emailSettingsPage,
  suppressionsPage,
  automationsPage,
];
