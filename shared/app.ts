import { account } from './account/index';
import { processorSandbox } from './adapters/processor-sandbox/index';
import { processorStripe } from './adapters/processor-stripe/index';
import { analytics } from './analytics/index';
import { audience } from './audience/index';
import { audit } from './audit/index';
import { automations } from './automations/index';
import { catalog } from './catalog/index';
import { checkout } from './checkout/index';
import { assembleApp } from './composition/assemble';
import { credits } from './credits/index';
import { dashboard } from './dashboard/index';
import { email } from './email/index';
import { events } from './events/index';
import { forms } from './forms/index';
import { receipts } from './receipts/index';
import { retention } from './retention/index';
import { funnels } from './funnels/index';
import { imports } from './imports/index';
import { invoices } from './invoices/index';
import { links } from './links/index';
import { memberships } from './memberships/index';
import type { Capability } from './platform/capability';
import { platformMail } from './platform-mail/index';
import { privacy } from './privacy/index';
import { processor } from './processor/index';
import { productFiles } from './product-files/index';
import { licenses } from './licenses/index';
import { sales } from './sales/index';
import { segments } from './segments/index';
import { sheets } from './sheets/index';
import { storefront } from './storefront/index';
import { subscriptions } from './subscriptions/index';
import { survey } from './survey/index';
import { team } from './team/index';
import { usage } from './usage/index';
import { webhooks } from './webhooks/index';

/**
 * The one list of capabilities. Adding a capability is a folder that follows shared/catalog/ and
 * one line here: its routes, OpenAPI paths, MCP tools, bus rules, queues, jobs, schedules, ports,
 * control routes and CDK resources all follow from its manifest (shared/<capability>/index.ts).
 * The order is the order of the API functions and bus rules. The sandbox processor (a provider
 * of the processor's port) comes just before the processor, whose API function serves its hosted
 * page, so the routes keep their order; the Stripe provider's webhook route rides on it too.
 */
export const CAPABILITIES: Capability[] = [
  account,
  catalog,
  webhooks,
  storefront,
  checkout,
  processorSandbox,
  processor,
  sales,
  subscriptions,
  credits,
  sheets,
  events,
  team,
  audience,
  email,
  processorStripe,
  automations,
  funnels,
  memberships,
  segments,
  imports,
  forms,
  links,
  survey,
  receipts,
  productFiles,
  licenses,
  usage,
  retention,
  dashboard,
  analytics,
  audit,
  privacy,
  invoices,
  platformMail,
];

export const APP = assembleApp(CAPABILITIES);
