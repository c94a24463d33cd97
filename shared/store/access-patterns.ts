/**
 * Every access pattern of the single table and what serves it. No request path scans the table.
 * `scope` is `A#<accountId>#<mode>`; ids are 24-hex and time-ordered. Capabilities add their rows
 * here when they add a pattern, next to the key builder in keys.ts that serves it.
 */
export interface AccessPattern {
  name: string;
  key: string;
  index: 'table' | 'GSI1' | 'GSI2' | 'GSI3';
  notes?: string;
}

export const ACCESS_PATTERNS: AccessPattern[] = [
  { name: 'Get account', key: 'PK=ACCOUNT#<accountId>, SK=ACCOUNT', index: 'table' },
  { name: 'List accounts (admin CLI only)', key: 'GSI1PK=ACCOUNTS', index: 'GSI1' },
  { name: 'Authenticate an API key', key: 'PK=APIKEY#<sha256(key)>, SK=APIKEY', index: 'table', notes: 'cached per function container for 60 s' },
  { name: 'List an account\'s API keys', key: 'GSI1PK=ACCOUNT#<accountId>#KEYS', index: 'GSI1' },
  { name: 'Count requests in the current minute', key: 'PK=RATE#<accountId>, SK=<window start>', index: 'table', notes: 'atomic ADD, TTL 2 min' },
  { name: 'Get a record of a kind', key: 'PK=<scope>#<TYPE>, SK=<id>', index: 'table' },
  { name: 'List records of a kind, newest first', key: 'PK=<scope>#<TYPE>, ScanIndexForward=false', index: 'table' },
  { name: 'Children of a record', key: 'PK=<scope>#<PARENT>#<parentId>#<TYPE>', index: 'table' },
  { name: 'Exact-match lookup / uniqueness guard', key: 'PK=<scope>#U#<name>, SK=<value>', index: 'table' },
  { name: 'Capability token lookup (portal, hosted checkout)', key: 'PK=CAP#<kind>#<token>, SK=CAP', index: 'table' },
  { name: 'Outbox events of a tenant', key: 'PK=<scope>#EVENT, SK=<eventId>', index: 'table', notes: 'TTL 30 days; the stream dispatches inserts' },
  { name: 'Consumer idempotency marker', key: 'PK=DONE#<consumer>, SK=<eventId>', index: 'table', notes: 'TTL 7 days' },
  { name: 'Webhook endpoints of a tenant (fan-out, list)', key: 'PK=<scope>#WEBHOOK', index: 'table', notes: 'bounded: 50 per mode' },
  { name: 'Webhook delivery of an event to an endpoint', key: 'PK=<scope>#WEBHOOK_DELIVERY, SK=<eventId>_<webhookId>[_<replayId>]', index: 'table', notes: 'created once with a condition; TTL 30 days' },
  { name: 'Webhook delivery log, newest first', key: 'PK=<scope>#WEBHOOK_ATTEMPT, SK=<attemptId>', index: 'table', notes: 'TTL 30 days; cursor is the last id (SK < after)' },
  { name: 'Webhook delivery log of one endpoint', key: 'GSI1PK=<scope>#WEBHOOK_ATTEMPTS#<webhookId>, GSI1SK=<attemptId>', index: 'GSI1' },
  { name: 'Webhook delivery log of one event', key: 'GSI2PK=<scope>#EVENT_WEBHOOK_ATTEMPTS#<eventId>, GSI2SK=<attemptId>', index: 'GSI2' },
  { name: 'Discount by code (case-insensitive) / code uniqueness', key: 'PK=<scope>#U#DISCOUNT_CODE, SK=<UPPER(code)>', index: 'table', notes: 'holds discountId; written with the discount in one transaction' },
  { name: 'Discounts of a tenant (check-product)', key: 'PK=<scope>#DISCOUNT', index: 'table', notes: 'bounded per-tenant list' },
  { name: 'Public image file by token', key: 'PK=CAP#image#<token>, SK=CAP', index: 'table', notes: 'holds blobKey and contentType' },
  { name: 'Creator page of a tenant', key: 'PK=<scope>#CREATOR_PAGE, SK=PAGE', index: 'table' },
  { name: 'Creator page links, in order added', key: 'PK=<scope>#CREATOR_PAGE#PAGE#LINK, ScanIndexForward=true', index: 'table' },
  { name: 'Partner by referral code / code uniqueness', key: 'PK=<scope>#U#PARTNER_CODE, SK=<UPPER(code)>', index: 'table', notes: 'holds partnerId' },
  { name: 'Referrals and referral sales of a partner', key: 'PK=<scope>#PARTNER#<partnerId>#REFERRAL | #REFERRAL_SALE', index: 'table', notes: 'referral sale SK is the sale id (one per sale); all-partner lists read each partner' },
  { name: 'Receipt capability (buyer review permission)', key: 'PK=CAP#receipt#<token>, SK=CAP', index: 'table', notes: 'written by checkout per completed sale' },
  { name: 'One review per sale', key: 'PK=<scope>#U#REVIEW_SALE, SK=<saleId>', index: 'table' },
  { name: 'Reviews of one product, newest first', key: 'GSI1PK=<scope>#REVIEWS_OF_PRODUCT#<productId>, GSI1SK=<reviewId>', index: 'GSI1' },
  { name: 'Products using a refund policy (appliedTo)', key: 'PK=<scope>#PRODUCT, filter attribute_exists(refundPolicyId)', index: 'table', notes: 'bounded per-tenant query; counted in memory' },
  { name: 'Product / subscription offer by id (checkout, joins, catalog API)', key: 'PK=<scope>#PRODUCT | #OFFER, SK=<id>', index: 'table', notes: 'deleted ones stay with deletedAt set; the catalog API and getSellable treat them as missing' },
  { name: 'Products / subscription offers of a tenant and mode, newest first', key: 'PK=<scope>#PRODUCT | #OFFER, ScanIndexForward=false, filter attribute_not_exists(deletedAt)', index: 'table', notes: 'bounded per-tenant list; also read for copy-name de-duplication' },
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
  { name: 'Local scheduler: timers due before now', key: 'PK=TIMERS, SK<=<dueAt>', index: 'table', notes: 'local runtime only' },
  { name: 'Team members / open invites / teams of a tenant', key: 'PK=<scope>#TEAM_MEMBER | #TEAM_INVITE | #TEAM, SK=<id>', index: 'table', notes: 'bounded by the plan\'s seats (25) and 50 teams; read whole' },
  { name: 'Ended team invite (why an old accept link fails)', key: 'PK=<scope>#TEAM_INVITE_ENDED, SK=<inviteId>', index: 'table', notes: 'TTL 30 days' },
  { name: 'Team counters (owners, seats used and pending)', key: 'PK=<scope>#TEAM_STATE, SK=STATE', index: 'table', notes: 'conditions keep one owner and the seat limit' },
  { name: 'Team email holder (one member or invite per lower-cased email)', key: 'PK=<scope>#U#TEAM_EMAIL, SK=<lower(email)>', index: 'table' },
  { name: 'Team invites counted per hour', key: 'PK=<scope>#TEAM_INVITE_WINDOW, SK=<hour start ISO>', index: 'table', notes: 'atomic ADD with a condition; TTL 2 h' },
  { name: 'Team member\'s grant (role, areas, status) read by auth per request', key: 'PK=<scope>#MEMBER_ACCESS, SK=<memberId>', index: 'table', notes: 'kernel-owned, written by the team in the same transaction as the change' },
  { name: 'Activity log, newest first', key: 'PK=<scope>#ACTIVITY, SK=<activityId>, ScanIndexForward=false', index: 'table', notes: 'TTL 1 year; cursor: SK < before' },
];
