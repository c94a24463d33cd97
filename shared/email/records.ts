export const SETTINGS = 'EMAIL_SETTINGS';
export const POST = 'NEWSLETTER_POST';

/** Sender and footer of an account and mode (`/newsletters/settings`). */
export interface EmailSettingsRecord {
  senderEmail: string | null;
  fromName: string | null;
  replyTo: string | null;
  /** Required before any send: it goes in every footer. */
  physicalAddress: string | null;
  footerText: string | null;
  /** The newsletter opt-in box on the hosted checkout (shared/email/seller-settings.ts). */
  checkoutOptIn: CheckoutOptIn;
  /** Its wording (null: the default, naming the store). */
  checkoutOptInWording: string | null;
  /** A mail to the store owner for every paid order. */
  saleNotifications: boolean;
  /** Signs unsubscribe and tracking tokens; encrypted, never returned. */
  tokenSecretCiphertext?: string;
  totalEmailsSent: number;
  updatedAt: string | null;
}

export type CheckoutOptIn = 'off' | 'unchecked' | 'checked';

export type PostStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'failed';
export type PostSource = 'dashboard' | 'api' | 'funnel' | 'membership' | 'automation';
/** What queued a transactional mail: a post's sources, and the notices that are never posts. */
export type MailSource = PostSource | 'receipt' | 'form' | 'retention' | 'seller';

export type Audience = { type: 'all' } | { type: 'tag'; tag: string } | { type: 'segment'; segmentId: string };

/** What a mail says and whom it comes from: a post and a queued mail alike (outbox.ts `mailContent`). */
export interface MailContentFields {
  subject: string;
  html: string | null;
  text: string | null;
  preview: string | null;
  fromName: string | null;
  replyTo: string | null;
}

export interface PostRecord extends MailContentFields {
  _id: string;
  audience: Audience;
  source: PostSource;
  status: PostStatus;
  sendAt: string | null;
  failureReason: string | null;
  /** Recipients the mail went to. */
  sent: number;
  /** Unique recipients who opened / clicked. */
  opened: number;
  clicked: number;
  // Where a send stands, committed after each batch, so a restart resumes from here.
  /** Audience cursor after the last committed batch; null before the first. */
  cursor: string | null;
  /** Number of the batch to run next. */
  batch: number;
  /** A worker holds the batch until then (epoch ms); 0 when free. */
  leaseUntil: number;
  /** Base address of the links in the mail, fixed when the send starts. */
  linkBaseUrl?: string;
  startedAt: string | null;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a delivered transactional mail (shared/email/outbox.ts: receipts, access links,
 * confirmations, automation steps) leaves behind: who it went to in number and their engagement.
 * Not a newsletter post: it is never listed with the posts nor readable as one; its id is the
 * queued mail's, which is also the `p` of its tracking links.
 */
export interface SentMailRecord {
  _id: string;
  subject: string;
  source: MailSource;
  sent: number;
  opened: number;
  clicked: number;
  sentAt: string;
}

export type QueuedMailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/**
 * A transactional mail another capability queued (shared/email/outbox.ts) for the email
 * capability's own worker to render and deliver. Its id becomes the id of the sent post.
 */
export interface QueuedMailRecord extends MailContentFields {
  _id: string;
  /** Recipients, lower-cased and de-duplicated, none suppressed or unsubscribed when queued. */
  to: string[];
  source: MailSource;
  /** The mail's language, for its footer (absent: English). */
  locale?: string | null;
  baseUrl: string | null;
  track: boolean;
  /** At most once per recipient: an interrupted delivery is failed, not repeated (absent on mail queued before it existed: false). */
  once?: boolean;
  status: QueuedMailStatus;
  failureReason: string | null;
  /** Delivery attempts that reached the provider and were refused as a whole. */
  attempts: number;
  /** While `sending`: until when the worker that claimed it holds it (ms); a later worker may take it over after. */
  leaseUntil?: number;
  createdAt: string;
  updatedAt: string;
}
