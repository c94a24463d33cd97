/**
 * Access-pattern table rows that no entity declaration renders yet. Hand-kept; everything else in
 * access-patterns.ts is rendered from the `entities.ts` declarations (scripts/access-patterns.ts).
 *
 * - KEY_SHAPES: the shapes of keys.ts, for reading the table.
 * - NOT_YET_DECLARED: the money path (checkout, sales, subscriptions, credits, processor) and the
 *   consumer markers, as they were; each moves into an `entities.ts` next to its repository.
 */
import type { AccessPatternRow } from './entity';

export const KEY_SHAPES: AccessPatternRow[] = [
  { name: 'Get a record of a kind', key: 'PK=<scope>#<TYPE>, SK=<id>', index: 'table' },
  { name: 'List records of a kind, newest first', key: 'PK=<scope>#<TYPE>, ScanIndexForward=false', index: 'table' },
  { name: 'Children of a record', key: 'PK=<scope>#<PARENT>#<parentId>#<TYPE>', index: 'table' },
  { name: 'Exact-match lookup / uniqueness guard', key: 'PK=<scope>#U#<name>, SK=<value>', index: 'table' },
  { name: 'Capability token lookup (portal, hosted checkout)', key: 'PK=CAP#<kind>#<token>, SK=CAP', index: 'table' },
];

export const NOT_YET_DECLARED: AccessPatternRow[] = [
  { name: 'Consumer idempotency marker', key: 'PK=DONE#<consumer>, SK=<eventId>', index: 'table', notes: 'TTL 7 days' },
  { name: 'Checkout session by id', key: 'PK=<scope>#CHECKOUT, SK=<sessionId>', index: 'table' },
  { name: 'Checkout session / sale / subscriber locator (local control API, portal pair)', key: 'PK=CAP#checkout-session | #sale | #subscriber#<id>, SK=CAP', index: 'table', notes: 'holds accountId and mode' },
  { name: 'Sale by id; every sale newest first', key: 'PK=<scope>#SALE, SK=<saleId>', index: 'table' },
  { name: 'Sales of one type (orders = one_time, payments?type=)', key: 'GSI1PK=<scope>#SALES_BY_TYPE#<type>, GSI1SK=<saleId>', index: 'GSI1' },
  { name: 'Sales of a subscriber (payments history)', key: 'GSI2PK=<scope>#SUBSCRIBER_SALES#<subscriberId>, GSI2SK=<saleId>', index: 'GSI2' },
  { name: 'Sale by processor payment id (refunds, disputes)', key: 'PK=<scope>#U#PAYMENT, SK=<pay_id>', index: 'table', notes: 'holds saleId' },
  { name: 'Customer by id; all customers (not paginated)', key: 'PK=<scope>#CUSTOMER, SK=<customerId>', index: 'table' },
  { name: 'Customer by email / one customer per email', key: 'PK=<scope>#U#CUSTOMER_EMAIL, SK=<lower(email)>', index: 'table', notes: 'holds customerId' },
  { name: 'Subscriber by id; all subscribers', key: 'PK=<scope>#SUBSCRIBER, SK=<subscriberId>', index: 'table' },
  { name: 'Subscribers of an offer', key: 'GSI1PK=<scope>#OFFER_SUBSCRIBERS#<offerId>, GSI1SK=<subscriberId>', index: 'GSI1' },
  { name: 'Subscribers of a buyer email', key: 'GSI2PK=<scope>#SUBSCRIBER_EMAIL#<email>, GSI2SK=<subscriberId>', index: 'GSI2' },
  { name: 'One subscriber per buyer per offer', key: 'PK=<scope>#U#SUBSCRIBER_OF, SK=<offerId>#<email>', index: 'table', notes: 'holds subscriberId' },
  { name: 'Subscriber by mem_ id', key: 'PK=<scope>#U#MEMBERSHIP, SK=<mem_id>', index: 'table', notes: 'holds subscriberId' },
  { name: 'Portal token', key: 'PK=CAP#portal#<token>, SK=CAP', index: 'table', notes: 'permits portal cancel and resume' },
  { name: 'Credit accounts of a tenant; by buyer and product', key: 'PK=<scope>#CREDIT_ACCOUNT, SK=<id>; PK=<scope>#U#CREDIT_ACCOUNT_OF, SK=<productId>#<email>', index: 'table' },
  { name: 'Sandbox processor records', key: 'PK=<scope>#SBX_MEMBERSHIP | #SBX_PAYMENT | #SBX_CARD | #SBX_NOTIFICATION, SK=<id>; PK=CAP#sbx-checkout#<cs_id>', index: 'table', notes: 'notifications TTL 30 days' },
  { name: 'Processor notification processed marker', key: 'PK=DONE#processor-ingress, SK=<notificationId>', index: 'table', notes: 'TTL 30 days; in the same transaction as the change' },
  { name: 'Subscription timer fired once per period', key: 'PK=DONE#subscription-timers, SK=<type>:<subscriberId>:<periodEnd>', index: 'table', notes: 'TTL 30 days' },
];
