export const SURVEY = 'SURVEY';
export const SURVEY_ORDER = 'SURVEY_ORDER';
export const SURVEY_DAY = 'SURVEY_DAY';
export const SURVEY_OTHER_DAY = 'SURVEY_OTHER_DAY';
export const REFUND_CONSUMER = 'survey-refunds';

/** The survey's view of one paid order: written when the buyer first sees the question. */
export interface SurveyOrderRecord {
  saleId: string;
  /** UTC day of the sale: the day whose counters it is counted in. */
  day: string;
  /** Revenue counted for it (0 when the sale's currency is not the account's). */
  revenueCents: number;
  shownAt: string;
  answeredAt?: string;
  /** An option id, or `other`. */
  answerId?: string;
  otherText?: string;
  refunded?: boolean;
}

/** One UTC day of counters: `shown`, `answered`, `revenueCents` and per answer id `a:<id>` / `r:<id>`. */
export type SurveyDayRecord = Record<string, number | string>;

export const answerCountField = (answerId: string) => `a:${answerId}`;
export const answerRevenueField = (answerId: string) => `r:${answerId}`;
export const otherTextField = (text: string) => `t:${text}`;
