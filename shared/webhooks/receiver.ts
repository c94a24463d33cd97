/**
 * The receiver helper for sellers: verify a delivery's signature before trusting it.
 * See shared/webhooks/README.md ("Receiving webhooks").
 */
export { verifyWebhook, DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookInput, type VerifyWebhookResult } from './verify';
export { HEADER as WEBHOOK_HEADERS } from './signing';
