import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { KEY_IS_FREE } from '../store/conditional';
import { toRecord, type Store, type TransactOp } from '../store/store';
import type { SurveySettings } from './rules';
import {
  SURVEY,
  SURVEY_DAY,
  SURVEY_ORDER,
  SURVEY_OTHER_DAY,
  answerCountField,
  answerRevenueField,
  otherTextField,
  type SurveyDayRecord,
  type SurveyOrderRecord,
} from './records';

// Layout (no partition grows with the number of orders on a read path):
// - settings:      PK=<scope>#SURVEY,           SK=settings
// - order answer:  PK=<scope>#SURVEY_ORDER,     SK=<saleId>   (read by key only)
// - day counters:  PK=<scope>#SURVEY_DAY,       SK=<YYYY-MM-DD> one item per day with every answer
//                  id's count and revenue as attributes; a 366-day report reads ≤ 366 items
// - other texts:   PK=<scope>#SURVEY_OTHER_DAY, SK=<YYYY-MM-DD> counts of normalized free texts
// - event marker:  DONE#survey-refunds / <eventId> (the refund consumer acts once per event)

const settingsKey = (scope: Scope) => keys.entity(scope, SURVEY, 'settings');
const orderKey = (scope: Scope, saleId: string) => keys.entity(scope, SURVEY_ORDER, saleId);
const dayKey = (scope: Scope, day: string) => keys.entity(scope, SURVEY_DAY, day);
const otherDayKey = (scope: Scope, day: string) => keys.entity(scope, SURVEY_OTHER_DAY, day);

export const getSettings = async (store: Store, scope: Scope) => toRecord<SurveySettings>(await store.get(settingsKey(scope)));

export const putSettings = (store: Store, scope: Scope, settings: SurveySettings) => store.put(toItem(settingsKey(scope), 'SurveySettings', settings));

export const getSurveyOrder = async (store: Store, scope: Scope, saleId: string) =>
  toRecord<SurveyOrderRecord>(await store.get(orderKey(scope, saleId), { consistent: true }));

/** The buyer sees the question for the first time: the order joins `shown` of its day. */
export const shownOps = (scope: Scope, order: SurveyOrderRecord): TransactOp[] => [
  { put: toItem(orderKey(scope, order.saleId), 'SurveyOrder', order), condition: KEY_IS_FREE },
  { update: dayKey(scope, order.day), set: {}, add: { shown: 1 } },
];

/** The answer, once: the order item is conditioned on having none (and not being refunded). */
export const answerOps = (scope: Scope, order: SurveyOrderRecord, answer: { answerId: string; otherText?: string; at: string }): TransactOp[] => [
  {
    update: orderKey(scope, order.saleId),
    set: { answeredAt: answer.at, answerId: answer.answerId, ...(answer.otherText ? { otherText: answer.otherText } : {}) },
    condition: 'attribute_exists(PK) AND attribute_not_exists(#answered) AND (attribute_not_exists(#refunded) OR #refunded = :no)',
    names: { '#answered': 'answeredAt', '#refunded': 'refunded' },
    values: { ':no': false },
  },
  {
    update: dayKey(scope, order.day),
    set: {},
    add: { answered: 1, revenueCents: order.revenueCents, [answerCountField(answer.answerId)]: 1, [answerRevenueField(answer.answerId)]: order.revenueCents },
  },
];

/** An answer posted without a view first (a form kept open, a client without the page): shown and answered at once. */
export const firstAnswerOps = (scope: Scope, order: SurveyOrderRecord, answer: { answerId: string; otherText?: string; at: string }): TransactOp[] => [
  {
    put: toItem(orderKey(scope, order.saleId), 'SurveyOrder', {
      ...order,
      answeredAt: answer.at,
      answerId: answer.answerId,
      ...(answer.otherText ? { otherText: answer.otherText } : {}),
    }),
    condition: KEY_IS_FREE,
  },
  {
    update: dayKey(scope, order.day),
    set: {},
    add: {
      shown: 1,
      answered: 1,
      revenueCents: order.revenueCents,
      [answerCountField(answer.answerId)]: 1,
      [answerRevenueField(answer.answerId)]: order.revenueCents,
    },
  },
];

/** Counts a free text for `topAnswers` (after the answer committed; see README). */
export const countOtherText = (store: Store, scope: Scope, day: string, text: string, by: number) =>
  store.update(otherDayKey(scope, day), { add: { [otherTextField(text)]: by } });

/** A refund takes the order out of every counter it is in, once (the marker rides in the same transaction). */
export function refundOps(scope: Scope, order: SurveyOrderRecord, marker: TransactOp): TransactOp[] {
  const add: Record<string, number> = { shown: -1 };
  if (order.answerId)
    Object.assign(add, {
      answered: -1,
      revenueCents: -order.revenueCents,
      [answerCountField(order.answerId)]: -1,
      [answerRevenueField(order.answerId)]: -order.revenueCents,
    });
  return [
    marker,
    {
      update: orderKey(scope, order.saleId),
      set: { refunded: true },
      condition:
        'attribute_exists(PK) AND (attribute_not_exists(#refunded) OR #refunded = :no) AND (attribute_not_exists(#answered) OR #answered = :answeredAt)',
      names: { '#refunded': 'refunded', '#answered': 'answeredAt' },
      values: { ':no': false, ':answeredAt': order.answeredAt ?? null },
    },
    { update: dayKey(scope, order.day), set: {}, add },
  ];
}

/** A refunded sale the buyer never saw the question for: marked so a later visit counts nothing. */
export const refundedUnseenOps = (scope: Scope, order: SurveyOrderRecord, marker: TransactOp): TransactOp[] => [
  marker,
  { put: toItem(orderKey(scope, order.saleId), 'SurveyOrder', order), condition: KEY_IS_FREE },
];

export const markerPut = (consumer: string, eventId: string, created: number): TransactOp => ({
  put: toItem(keys.processed(consumer, eventId), 'ProcessedEvent', { eventId }, { expiresAt: created + 7 * 24 * 3600 }),
  condition: KEY_IS_FREE,
});
export const markerExists = async (store: Store, consumer: string, eventId: string) =>
  Boolean(await store.get(keys.processed(consumer, eventId), { consistent: true }));

async function daysBetween(store: Store, pk: string, start: string, end: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query({ pk, between: [start, end], ascending: true, limit: 400, cursor });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

/** The day counters of a range: one small item per day with activity (≤ 366). */
export const dayCounters = async (store: Store, scope: Scope, start: string, end: string) =>
  (await daysBetween(store, keys.collection(scope, SURVEY_DAY), start, end)) as SurveyDayRecord[];

export const otherTextCounters = async (store: Store, scope: Scope, start: string, end: string) =>
  (await daysBetween(store, keys.collection(scope, SURVEY_OTHER_DAY), start, end)) as SurveyDayRecord[];

/** The survey answers of some orders (an export or an erasure of their buyer), in no particular order. */
export const surveyOrdersOf = async (store: Store, scope: Scope, saleIds: string[]) =>
  (await store.batchGet<Record<string, unknown>>(saleIds.map((id) => orderKey(scope, id)))).map((item) => toRecord<SurveyOrderRecord>(item)!);

/** The free text a buyer typed goes; the chosen answer stays counted in the report. */
export const otherTextErasure = (store: Store, scope: Scope, saleId: string) =>
  store.update(orderKey(scope, saleId), { remove: ['otherText'] }, { mustExist: true });
