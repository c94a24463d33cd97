import type { InvoiceDocument } from './invoice-document';
import type { DomainEvent } from './events';
import type { Scope } from '../store/keys';
import type { SecretSetting } from './settings';

/**
 * The ports services are given. Each has an AWS implementation (aws/) and a local one (local/);
 * services never know which. Capabilities that need a new port add it here and in both folders.
 */

/** EventBridge in AWS; an in-process bus with the same rule patterns locally. */
export interface BusPort {
  publish(events: DomainEvent[]): Promise<void>;
}

/** 'jobs' (the kernel's timers) or a queue a capability declares in its manifest. */
export type QueueName = string;

/** SQS in AWS (per-message delay, DLQ); an in-process queue with the same semantics locally. */
export interface QueuePort {
  send(queue: QueueName, message: Record<string, unknown>, options?: { delaySeconds?: number }): Promise<void>;
}

/** The queue jobs go to (`queue.send(JOBS_QUEUE, job)`): in AWS, the jobs queue of the job's capability. */
export const JOBS_QUEUE = 'jobs';

/** A job the scheduler fires into the jobs queue when it falls due. */
export interface Job {
  type: string;
  scope?: Scope;
  payload: Record<string, unknown>;
  /** Set on jobs fired by a recurring schedule: its name. */
  recurring?: string;
}

/** EventBridge Scheduler one-time schedules in AWS; timer items fired by the local clock locally. */
export interface SchedulerPort {
  /** Creates or replaces the timer called `name`. */
  schedule(name: string, at: Date, job: Job): Promise<void>;
  /** Removes the timer; a missing timer is not an error. */
  cancel(name: string): Promise<void>;
}

export interface BlobObject {
  body: Uint8Array;
  contentType: string;
}

/** S3 in AWS; files under .data/ locally. */
export interface BlobPort {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /**
   * Writes an object from chunks as they are produced, never holding more than one part (8 MiB)
   * of it: an S3 multipart upload in AWS (one PUT when it fits in a part), a file stream locally.
   * Answers its size. A failure leaves no object (the upload is aborted).
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array | string>, contentType: string): Promise<{ bytes: number }>;
  get(key: string): Promise<BlobObject | undefined>;
  delete(key: string): Promise<void>;
  /**
   * A short-lived address that serves the object's bytes itself (S3 presigned GET, as an
   * attachment named `filename`). Absent locally: the API serves the bytes then. In AWS a Lambda
   * answer is capped at 6 MB, so large files must go this way.
   */
  signedGetUrl?(key: string, options: { expiresInSeconds: number; filename: string; contentType: string }): Promise<string>;
  /**
   * Large objects straight from the client, never through a function (a Lambda request is capped
   * at 6 MB): S3 multipart upload with presigned part URLs in AWS; locally the runtime serves the
   * part URLs and assembles the parts under `.data/`. Same steps on both.
   */
  multipart: BlobMultipart;
}

/** One uploaded part as the client reports it: its number and the ETag its PUT answered. */
export interface BlobPart {
  partNumber: number;
  etag: string;
}

export interface BlobMultipart {
  /** Starts an upload of `key`; answers the store's upload id. */
  create(key: string, contentType: string): Promise<string>;
  /** Presigned PUT addresses, one per part number, each valid `expiresInSeconds`. */
  partUrls(key: string, uploadId: string, partNumbers: number[], expiresInSeconds: number): Promise<string[]>;
  /**
   * Joins the parts, in order, into the object; answers its size. Throws `BlobPartsError` when a
   * part is missing, too small or its ETag does not match (the client's fault, a 400).
   */
  complete(key: string, uploadId: string, parts: BlobPart[]): Promise<{ size: number }>;
  /** Drops an unfinished upload and its parts; an unknown one is not an error. */
  abort(key: string, uploadId: string): Promise<void>;
}

/** The parts a client named cannot make the object (missing, out of order, wrong ETag, too small). */
export class BlobPartsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlobPartsError';
  }
}

export interface EmailMessage {
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** Sender address; the configured default when absent. */
  from?: string;
  /** Display name shown with the sender address. */
  fromName?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post of RFC 8058). */
  headers?: Record<string, string>;
  /** Provider message tags (SES EmailTags): they come back on bounce and complaint events. */
  tags?: Record<string, string>;
}

/**
 * One message to many recipients, personalised by `{{name}}` placeholders in subject, html and
 * text, and by per-destination headers (SES v2 SendBulkEmail with an inline template). At most 50
 * destinations; `data` values are inserted as given (the caller escapes them).
 */
export interface BulkEmail extends Omit<EmailMessage, 'to'> {
  destinations: { to: string; data: Record<string, string>; headers?: Record<string, string> }[];
}

/** Per destination, in order: the provider's message id, or why it was refused. */
export type BulkEmailResult = { to: string; messageId?: string; error?: string }[];

/** SES v2 in AWS; captured mail listed by the control API locally. */
export interface EmailPort {
  send(message: EmailMessage): Promise<{ messageId: string }>;
  sendBulk(message: BulkEmail): Promise<BulkEmailResult>;
  /** Whether the provider lets this address send (the SES identity's status, read now). */
  senderIdentity(address: string): Promise<{ verified: boolean; status: string }>;
}

/** KMS in AWS; AES-256-GCM with a key under .data/ locally. Context binds a ciphertext to its owner. */
export interface EncryptionPort {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

/** What a mail says (`html` or `text`, or both). */
export interface MailContent {
  subject: string;
  html?: string | null;
  text?: string | null;
  preview?: string | null;
  /** The mail's language (en, fr, de, es, pt-BR, ja): its `<html lang>`; English when absent. */
  locale?: string | null;
}

export interface MailFooter {
  physicalAddress: string;
  footerText?: string | null;
  /**
   * The unsubscribe link's words and the plain-text line (with its `{{u}}` placeholder) in the
   * mail's language; English when absent. Worded by the sender, so the renderer needs no catalogue.
   */
  unsubscribe?: { link: string; line: string } | null;
}

/** A rendered mail with `{{name}}` placeholders for what differs per recipient (shared/email/mail-builder.ts). */
export interface MailTemplate {
  subject: string;
  html: string;
  text: string;
  /** The http(s) targets of the tracked links, by index (`{{c<i>}}`). */
  links: string[];
}

/**
 * HTML work on content from outside: mail rendered from what a creator wrote, member posts
 * sanitised. In AWS a function of its own does it (shared/composition/render.ts), invoked
 * and waited for: the HTML packages (sanitize-html, juice, html-to-text: ~250 KiB) stay out of
 * every other function, and the untrusted HTML is parsed where no data can be reached.
 */
export interface RenderPort {
  mailTemplate(content: MailContent, footer: MailFooter, options?: { track?: boolean }): Promise<MailTemplate>;
  sanitizePost(html: string): Promise<string>;
  /** An invoice or credit note as a PDF (pdfkit, kept in the render function with the HTML packages). */
  invoicePdf(document: InvoiceDocument): Promise<Uint8Array>;
}

/**
 * A secret setting's value (shared/platform/settings.ts): Secrets Manager in AWS, read once per
 * container through Powertools Parameters; the data folder locally (or the environment's value).
 * Refuses a secret the function was not given.
 */
export interface SecretsPort {
  get(setting: SecretSetting): Promise<string>;
}

export interface CorePorts {
  secrets: SecretsPort;
  bus: BusPort;
  queue: QueuePort;
  scheduler: SchedulerPort;
  blob: BlobPort;
  email: EmailPort;
  encryption: EncryptionPort;
  render: RenderPort;
}

/**
 * Every port. Capabilities extend this interface by declaration merging from their own adapter
 * module (for example the processor port), so adding a port touches no other capability's files.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Ports extends CorePorts {}
