import type { CapturedEmail } from '../../shared/adapters/local/email';
import type { LocalRuntime } from '../../shared/local/runtime';
import { ApiClient } from './runtime';

/**
 * The local runtime's control API (`/_local/*`) as tests use it: the mails it captured, its clock.
 * One place, so a test reads `sentMails(runtime, to)` instead of re-declaring the request.
 */

/** A mail the local email adapter captured instead of sending, as `/_local/emails` answers it. */
export type SentMail = Omit<CapturedEmail, 'tags' | 'messageId'>;

type Runtime = Pick<LocalRuntime, 'url'>;

/** Mails captured so far, to one address or (without `to`) to anyone, oldest first. */
export async function sentMails(runtime: Runtime, to?: string): Promise<SentMail[]> {
  const res = await new ApiClient(runtime.url).get(`/_local/emails${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  if (res.status !== 200) throw new Error(`/_local/emails answered ${res.status}: ${res.text}`);
  return res.body.emails;
}

/** Moves the runtime's clock forward (due timers fire) and answers the new time. */
export async function advanceClock(runtime: Runtime, seconds: number): Promise<Date> {
  const res = await new ApiClient(runtime.url).post('/_local/clock/advance', { seconds });
  if (res.status !== 200) throw new Error(`/_local/clock/advance answered ${res.status}: ${res.text}`);
  return new Date(res.body.now);
}
