import { appendFile, readFile } from 'node:fs/promises';
import type { EmailMessage, EmailPort } from '../../platform/ports';
import type { Clock } from '../../platform/clock';
import { randomHex } from '../../platform/ids';

export interface CapturedEmail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  sentAt: string;
  messageId: string;
}

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

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    const failing = message.to.filter((to) => this.failFor.has(to.toLowerCase()));
    if (failing.length) throw new Error(`Mailbox unavailable: ${failing.join(', ')}`);
    const messageId = `local-${randomHex(8)}`;
    const entries = message.to.map((to) => ({
      to,
      from: message.from ?? this.defaultFrom,
      subject: message.subject,
      html: message.html,
      text: message.text,
      sentAt: this.clock.now().toISOString(),
      messageId,
    }));
    this.sent.push(...entries);
    if (this.logFile) await appendFile(this.logFile, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    return { messageId };
  }

  async list(to?: string): Promise<CapturedEmail[]> {
    if (!this.loaded && this.logFile) {
      this.loaded = true;
      try {
        const lines = (await readFile(this.logFile, 'utf8')).split('\n').filter(Boolean);
        const known = new Set(this.sent.map((e) => `${e.messageId}|${e.to}`));
        for (const line of lines) {
          const entry = JSON.parse(line) as CapturedEmail;
          if (!known.has(`${entry.messageId}|${entry.to}`)) this.sent.push(entry);
        }
      } catch {
        /* no log yet */
      }
    }
    const wanted = to?.toLowerCase();
    return this.sent.filter((e) => !wanted || e.to.toLowerCase() === wanted);
  }
}
