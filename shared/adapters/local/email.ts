import { appendFile, readFile } from 'node:fs/promises';
import type { BulkEmail, BulkEmailResult, EmailMessage, EmailPort } from '../../platform/ports';
import type { Clock } from '../../platform/clock';
import { randomHex } from '../../platform/ids';

export interface CapturedEmail {
  to: string;
  from: string;
  fromName?: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  sentAt: string;
  messageId: string;
}

/** Fills `{{name}}` placeholders as SES fills an inline template's (unknown names become empty). */
export const fillTemplate = (template: string, data: Record<string, string>) =>
  template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => data[name] ?? '');

/** SES stand-in: every message is captured (one entry per recipient) and listed by the control API. */
export class LocalEmail implements EmailPort {
  private readonly sent: CapturedEmail[] = [];
  private loaded = false;
  /** Recipients whose next send fails, for testing send failures. */
  readonly failFor = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly defaultFrom: string,
    private readonly logFile?: string,
  ) {}

  private async capture(entries: CapturedEmail[]) {
    this.sent.push(...entries);
    if (this.logFile && entries.length) await appendFile(this.logFile, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  }

  private entry(message: Omit<EmailMessage, 'to'>, to: string, messageId: string): CapturedEmail {
    return {
      to,
      from: message.from ?? this.defaultFrom,
      ...(message.fromName ? { fromName: message.fromName } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      subject: message.subject,
      html: message.html,
      text: message.text,
      ...(message.headers ? { headers: message.headers } : {}),
      ...(message.tags ? { tags: message.tags } : {}),
      sentAt: this.clock.now().toISOString(),
      messageId,
    };
  }

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    const failing = message.to.filter((to) => this.failFor.has(to.toLowerCase()));
    if (failing.length) throw new Error(`Mailbox unavailable: ${failing.join(', ')}`);
    const messageId = `local-${randomHex(8)}`;
    await this.capture(message.to.map((to) => this.entry(message, to, messageId)));
    return { messageId };
  }

  /** Like SendBulkEmail: one result per destination; a refused destination does not stop the rest. */
  async sendBulk(message: BulkEmail): Promise<BulkEmailResult> {
    if (message.destinations.length > 50) throw new Error('At most 50 destinations per bulk call');
    const results: BulkEmailResult = [];
    const entries: CapturedEmail[] = [];
    for (const destination of message.destinations) {
      if (this.failFor.has(destination.to.toLowerCase())) {
        results.push({ to: destination.to, error: 'Mailbox unavailable' });
        continue;
      }
      const messageId = `local-${randomHex(8)}`;
      const filled = {
        ...message,
        subject: fillTemplate(message.subject, destination.data),
        html: fillTemplate(message.html, destination.data),
        text: fillTemplate(message.text, destination.data),
        headers: { ...(message.headers ?? {}), ...(destination.headers ?? {}) },
      };
      entries.push(this.entry(filled, destination.to, messageId));
      results.push({ to: destination.to, messageId });
    }
    await this.capture(entries);
    return results;
  }

  /** Locally every sender may send; the account's `senderVerified` flag (control API) decides. */
  async senderIdentity(): Promise<{ verified: boolean; status: string }> {
    return { verified: true, status: 'SUCCESS' };
  }

  async list(to?: string): Promise<CapturedEmail[]> {
    if (!this.loaded && this.logFile) {
      this.loaded = true;
      try {
        const lines = (await readFile(this.logFile, 'utf8')).split('\n').filter(Boolean);
        const known = new Set(this.sent.map((e) => `${e.messageId}|${e.to}`));
        const earlier: CapturedEmail[] = [];
        for (const line of lines) {
          let entry: CapturedEmail;
          try {
            entry = JSON.parse(line) as CapturedEmail;
          } catch {
            continue; // a line cut short by a killed process
          }
          if (!known.has(`${entry.messageId}|${entry.to}`)) earlier.push(entry);
        }
        // Mail of an earlier run came first.
        this.sent.unshift(...earlier);
      } catch {
        /* no log yet */
      }
    }
    const wanted = to?.toLowerCase();
    return this.sent.filter((e) => !wanted || e.to.toLowerCase() === wanted);
  }
}
