import type { PageDefinition } from './types';
import { homePage } from './home/HomePage';
import { productsPage } from './commerce/ProductsPage';
import { offersPage } from './commerce/OffersPage';
import { imagesPage } from './commerce/ImagesPage';
import { refundPoliciesPage } from './commerce/RefundPoliciesPage';
import { reviewsPage } from './commerce/ReviewsPage';
import { ordersPage, paymentsPage } from './commerce/OrdersPage';
import { orderDetailPage, paymentDetailPage } from './commerce/SaleDetailPage';
import { customersPage } from './commerce/CustomersPage';
import { subscribersPage } from './commerce/SubscribersPage';
import { creditsPage } from './commerce/CreditsPage';
import { discountsPage } from './commerce/DiscountsPage';
import { upsellsPage } from './commerce/UpsellsPage';
import { partnersPage } from './commerce/PartnersPage';
import { apiKeysPage } from './developers/ApiKeysPage';
import { webhooksPage } from './developers/WebhooksPage';
import { deliveriesPage } from './developers/DeliveriesPage';
import { eventsPage } from './developers/EventsPage';
import { segmentEditorPage, segmentsPage } from './growth/SegmentsPage';
import { importDetailPage, importsPage, newImportPage } from './growth/ImportsPage';
import { teamPage } from './growth/TeamPage';
import { settingsPage } from './settings/SettingsPage';
import { auditLogPage } from './developers/AuditLogPage';
import { formEditorPage, formsPage } from './growth/FormsPage';
import { sheetsPage } from './growth/SheetsPage';
import { surveyPage } from './growth/SurveyPage';
import { linksPage } from './growth/LinksPage';
import { contactsPage } from './growth/ContactsPage';
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
import { editPostPage, newPostPage } from './engage/composer/ComposerPage';
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
  offersPage,
  imagesPage,
  refundPoliciesPage,
  reviewsPage,
  ordersPage,
  orderDetailPage,
  paymentsPage,
  paymentDetailPage,
  customersPage,
  subscribersPage,
  creditsPage,
  discountsPage,
  upsellsPage,
  partnersPage,
  settingsPage,
  apiKeysPage,
  webhooksPage,
  deliveriesPage,
  eventsPage,
  segmentsPage,
  segmentEditorPage,
  importsPage,
  newImportPage,
  importDetailPage,
  teamPage,
  auditLogPage,
  contactsPage,
  formsPage,
  formEditorPage,
  sheetsPage,
  surveyPage,
  linksPage,
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
  newPostPage,
  editPostPage,
  emailSettingsPage,
  suppressionsPage,
  automationsPage,
];
