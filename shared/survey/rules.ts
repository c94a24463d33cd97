import { badRequest } from '../platform/errors';

/** Attribution survey rules: pure functions, unit-tested (test/unit/survey-rules.test.ts). */

import { CHANNELS, type Channel } from '../links/service';

export { CHANNELS, type Channel };

export const LIMITS = {
  question: 120,
  label: 60,
  minOptions: 2,
  maxOptions: 12,
  otherText: 100,
  maxRangeDays: 366,
  defaultRangeDays: 30,
  topAnswers: 10,
} as const;

/** The answer id of the free-text answer; no option may take it. */
export const OTHER_ID = 'other';

export interface SurveyOption {
  id: string;
  label: string;
  channel: Channel | null;
}

export interface SurveySettings {
  enabled: boolean;
  question: string;
  options: SurveyOption[];
  allowOther: boolean;
  updatedAt: string | null;
}

export const DEFAULT_SETTINGS: SurveySettings = {
  enabled: false,
  question: 'How did you hear about us?',
  options: [
    { id: 'instagram', label: 'Instagram', channel: 'instagram' },
    { id: 'tiktok', label: 'TikTok', channel: 'tiktok' },
    { id: 'youtube', label: 'YouTube', channel: 'youtube' },
    { id: 'friend', label: 'A friend', channel: null },
  ],
  allowOther: true,
  updatedAt: null,
};

/** An option id from its label: lower-case letters, digits and dashes (`Friend's tip` → `friend-s-tip`). */
export const slugOf = (label: string) =>
  label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'option';

export interface OptionInput {
  id?: string;
  label: string;
  channel?: Channel | null;
}

/**
 * The options to store: a given `id` must be one of the current options (that is how a rename
 * keeps its past answers); an option without one gets an id from its label, unique within the
 * list and never `other` (reserved for the free-text answer). A removed option's id is reused by a
 * new option with the same label, which then keeps that option's past answers.
 */
export function assignOptionIds(current: SurveyOption[], input: OptionInput[]): SurveyOption[] {
  if (input.length < LIMITS.minOptions || input.length > LIMITS.maxOptions) {
    throw badRequest(`options must have ${LIMITS.minOptions} to ${LIMITS.maxOptions} entries`, { field: 'options' });
  }
  const known = new Set(current.map((o) => o.id));
  const taken = new Set<string>([OTHER_ID]);
  input.forEach((option, i) => {
    if (option.id === undefined) return;
    if (option.id === OTHER_ID) throw badRequest(`options[${i}].id: "other" is reserved for the free-text answer`, { field: `options[${i}].id` });
    if (!known.has(option.id))
      throw badRequest(`options[${i}].id: no option has id "${option.id}"; leave id out for a new option`, { field: `options[${i}].id` });
    if (taken.has(option.id)) throw badRequest(`options[${i}].id: "${option.id}" appears twice`, { field: `options[${i}].id` });
    taken.add(option.id);
  });
  return input.map((option, i) => {
    const label = option.label.trim();
    if (!label) throw badRequest(`options[${i}].label is empty`, { field: `options[${i}].label` });
    if (label.length > LIMITS.label) throw badRequest(`options[${i}].label is longer than ${LIMITS.label} characters`, { field: `options[${i}].label` });
    let id = option.id;
    if (id === undefined) {
      const base = slugOf(label);
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
    }
    return { id, label, channel: option.channel ?? null };
  });
}

export function checkQuestion(question: string): string {
  const q = question.trim();
  if (!q) throw badRequest('question is empty', { field: 'question' });
  if (q.length > LIMITS.question) throw badRequest(`question is longer than ${LIMITS.question} characters`, { field: 'question' });
  return q;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 24 * 3600 * 1000;

export const dayOf = (iso: string) => iso.slice(0, 10);

function parseDay(value: string, field: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw badRequest(`${field} must be an ISO date (YYYY-MM-DD)`, { details: { field } });
  return ms;
}

/**
 * The report's days, both ends included: by default the 30 days ending today (UTC); at most 366.
 * Only `startDate`: from it to today (or 30 days when today is earlier). Only `endDate`: the 30 days ending then.
 */
export function reportRange(now: Date, startDate?: string, endDate?: string): { start: string; end: string; days: number } {
  const today = Date.parse(`${dayOf(now.toISOString())}T00:00:00Z`);
  const end = endDate ? parseDay(endDate, 'endDate') : startDate ? Math.max(today, parseDay(startDate, 'startDate')) : today;
  const start = startDate ? parseDay(startDate, 'startDate') : end - (LIMITS.defaultRangeDays - 1) * dayMs;
  if (start > end) throw badRequest('startDate is after endDate', { field: 'startDate' });
  const days = Math.round((end - start) / dayMs) + 1;
  if (days > LIMITS.maxRangeDays)
    throw badRequest(`The report covers at most ${LIMITS.maxRangeDays} days; this range has ${days}`, {
      details: { field: 'endDate', maxDays: LIMITS.maxRangeDays },
    });
  return { start: new Date(start).toISOString().slice(0, 10), end: new Date(end).toISOString().slice(0, 10), days };
}

/** A percent with one decimal; 0 when there is nothing to divide by. */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** Free-text answers are grouped case- and space-insensitively for `topAnswers`. */
export const normalizeOtherText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, LIMITS.otherText);

/** The ten most common free-text answers, most common first, ties by text. */
export function topAnswers(counts: Map<string, number>, limit: number = LIMITS.topAnswers): { answer: string; count: number }[] {
  return [...counts.entries()]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([answer, count]) => ({ answer, count }));
}

/** Which sales the survey asks about: paid first purchases (not renewals, usage charges or free orders). */
export const isSurveyedSale = (sale: { amountCents: number; free: boolean; billingReason?: string }) =>
  sale.amountCents > 0 && !sale.free && (sale.billingReason === undefined || sale.billingReason === 'initial');
