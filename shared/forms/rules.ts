import type { FormDayRecord, FormRecord, FormType } from './records';

/** The spec's public signup limits. */
export const MIN_ELAPSED_MS = 1500;
export const SIGNUPS_PER_IP = 10;
export const IP_WINDOW_MS = 15 * 60_000;
export const DAILY_DAYS = 30;
export const CONFIRM_TTL_DAYS = 7;
export const CONSENT_WORDING = 'Subscribed through a signup form';

/** Copy a form gets when the creator leaves it out, per type. */
export const DEFAULT_COPY: Record<FormType, Pick<FormRecord, 'headline' | 'body' | 'buttonLabel' | 'placeholder' | 'successHeadline' | 'successMessage'>> = {
  inline: {
    headline: 'Join the newsletter',
    body: 'New posts, resources and offers, straight to your inbox.',
    buttonLabel: 'Subscribe',
    placeholder: 'you@example.com',
    successHeadline: 'You are in!',
    successMessage: 'Thanks for subscribing. Watch your inbox.',
  },
  slide_in: {
    headline: 'Before you go on reading…',
    body: 'Get the next post by email. No spam, unsubscribe any time.',
    buttonLabel: 'Send it to me',
    placeholder: 'Your email',
    successHeadline: 'Thank you!',
    successMessage: 'You will hear from us soon.',
  },
  popup: {
    headline: 'Wait! Get it free',
    body: 'Leave your email and we will send it right over.',
    buttonLabel: 'Get access',
    placeholder: 'Your best email',
    successHeadline: 'Check your inbox',
    successMessage: 'It is on its way.',
  },
};

/**
 * A bot filled the hidden `company` field, or submitted faster than a person can type. Such a
 * submit gets the ordinary success answer (so bots learn nothing) and is ignored.
 */
export function isLikelyBot(input: { company?: string | null; elapsedMs?: number | null }): boolean {
  if (typeof input.company === 'string' && input.company.trim() !== '') return true;
  return typeof input.elapsedMs !== 'number' || !Number.isFinite(input.elapsedMs) || input.elapsedMs < MIN_ELAPSED_MS;
}

/** The fixed 15-minute window a submit at `nowMs` counts in. */
export const ipWindowOf = (nowMs: number) => Math.floor(nowMs / IP_WINDOW_MS) * IP_WINDOW_MS;

/** Percent with one decimal; 0 when nothing was shown. */
export const conversionRate = (views: number, signups: number) => (views > 0 ? Math.round((signups / views) * 1000) / 10 : 0);

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The last `days` UTC days ending today, oldest first, zero-filled from the stored day records. */
export function dailySeries(now: Date, stored: FormDayRecord[], days = DAILY_DAYS): FormDayRecord[] {
  const byDay = new Map(stored.map((d) => [d.day, d]));
  const out: FormDayRecord[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const day = utcDay(new Date(today - i * 86_400_000));
    const found = byDay.get(day);
    out.push({ day, views: found?.views ?? 0, signups: found?.signups ?? 0 });
  }
  return out;
}

/** Fields whose change is editing (needs Growth); status alone stays open on every plan. */
export const isEditing = (change: Record<string, unknown>) => Object.keys(change).some((k) => k !== 'status' && change[k] !== undefined);

/** What the public read shows: everything a page needs to render, nothing of the creator's own. */
export function publicView(form: FormRecord) {
  const { name: _name, views: _v, signups: _s, tags: _t, createdAt: _c, updatedAt: _u, leadMagnetProductId: _p, leadMagnetUrl: _l, ...visible } = form;
  return { ...visible, id: form._id, render: true as const, hasLeadMagnet: form.leadMagnetProductId !== null };
}

/** Escapes text for an HTML page. */
