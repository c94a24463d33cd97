import { channelStats } from '../links/service';
import { getAccount } from '../platform/accounts';
import type { Account, Deps, OperationContext } from '../platform/context';
import { ApiError, badRequest } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { logger } from '../platform/logger';
import { toMajor } from '../platform/money';
import { planAtLeast } from '../platform/plans';
import { locateSaleById, saleAttributionOp } from '../sales/lookups';
import { receiptOfToken } from '../storefront/reviews/service';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import { REFUND_CONSUMER, answerCountField, answerRevenueField, type SurveyOrderRecord } from './records';
import * as repo from './repository';
import { markerSeen } from '../platform/markers';
import {
  DEFAULT_SETTINGS,
  LIMITS,
  OTHER_ID,
  assignOptionIds,
  checkQuestion,
  dayOf,
  isSurveyedSale,
  normalizeOtherText,
  percent,
  reportRange,
  topAnswers,
  type OptionInput,
  type SurveySettings,
} from './rules';

/** Enabling the survey needs Growth; asking buyers stops when the plan drops below it. */
export const SURVEY_PLAN = 'tier2' as const;

export const loadSettings = async (deps: Pick<Deps, 'store'>, scope: Scope): Promise<SurveySettings> =>
  (await repo.getSettings(deps.store, scope)) ?? DEFAULT_SETTINGS;

export const readSettings = (ctx: OperationContext) => loadSettings(ctx, ctx.scope);

/** Saves the settings; a field left out keeps its value. The plan gate on `enabled: true` is the operation's. */
export async function updateSettings(
  ctx: OperationContext,
  input: { enabled?: boolean; question?: string; options?: OptionInput[]; allowOther?: boolean },
): Promise<SurveySettings> {
  const current = await loadSettings(ctx, ctx.scope);
  const next: SurveySettings = {
    enabled: input.enabled ?? current.enabled,
    question: input.question === undefined ? current.question : checkQuestion(input.question),
    options: input.options === undefined ? current.options : assignOptionIds(current.options, input.options),
    allowOther: input.allowOther ?? current.allowOther,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await repo.putSettings(ctx.store, ctx.scope, next);
  return next;
}

export type SurveyVisit =
  | { kind: 'missing' }
  | { kind: 'closed' }
  | { kind: 'refunded' }
  | { kind: 'answered' }
  | { kind: 'open'; settings: SurveySettings; productName: string };

interface Resolved {
  scope: Scope;
  account: Account;
  settings: SurveySettings;
  order: SurveyOrderRecord;
  productName: string;
  seen: boolean;
}

/**
 * What a receipt token stands for: its sale (paid, first purchase), the seller's survey, and the
 * survey's view of the order (new when the buyer had not seen the question yet).
 */
async function resolve(deps: Deps, token: string): Promise<Resolved | Exclude<SurveyVisit, { kind: 'open' | 'answered' }>> {
  if (!/^[A-Za-z0-9]{16,64}$/.test(token)) return { kind: 'missing' };
  const receipt = await receiptOfToken(deps, token);
  if (!receipt) return { kind: 'missing' };
  const found = await locateSaleById(deps, receipt.saleId);
  // The token decides the tenant; a sale found elsewhere is not this receipt's.
  if (!found || found.scope.accountId !== receipt.accountId || found.scope.mode !== receipt.mode) return { kind: 'missing' };
  const { scope, sale } = found;
  if (!isSurveyedSale(sale)) return { kind: 'missing' };
  const account = await getAccount(deps.store, scope.accountId);
  const settings = await loadSettings(deps, scope);
  if (!account || !settings.enabled || !planAtLeast(account.plan, SURVEY_PLAN)) return { kind: 'closed' };
  const existing = await repo.getSurveyOrder(deps.store, scope, sale._id);
  if (existing?.refunded || sale.status === 'refunded') return { kind: 'refunded' };
  const order: SurveyOrderRecord = existing ?? {
    saleId: sale._id,
    day: dayOf(sale.createdAt),
    revenueCents: sale.currency.toUpperCase() === account.currency.toUpperCase() ? sale.amountCents : 0,
    shownAt: deps.clock.now().toISOString(),
  };
  return { scope, account, settings, order, productName: sale.productName, seen: Boolean(existing) };
}

/**
 * The survey page of a sale, for the buyer's receipt: only when the seller's survey is on (and
 * the plan has it) and the sale is one the survey asks about (a paid first purchase).
 */
export async function surveyUrlForSale(deps: Deps, scope: Scope, saleId: string, baseUrl: string): Promise<string | null> {
  const [account, settings, found] = await Promise.all([getAccount(deps.store, scope.accountId), loadSettings(deps, scope), locateSaleById(deps, saleId)]);
  if (!account || !settings.enabled || !planAtLeast(account.plan, SURVEY_PLAN)) return null;
  if (!found || found.scope.accountId !== scope.accountId || found.scope.mode !== scope.mode) return null;
  if (!isSurveyedSale(found.sale) || !found.sale.receiptToken) return null;
  return `${baseUrl}/survey/${found.sale.receiptToken}`;
}

/** The buyer opens the survey: the first view counts the order as shown. */
export async function visitSurvey(deps: Deps, token: string): Promise<SurveyVisit> {
  const r = await resolve(deps, token);
  if ('kind' in r) return r;
  if (r.order.answeredAt) return { kind: 'answered' };
  if (!r.seen) {
    await deps.store.transact(repo.shownOps(r.scope, r.order)).catch((error) => {
      // Counted by a view at the same moment.
      if (!(error instanceof ConditionFailed)) throw error;
    });
  }
  return { kind: 'open', settings: r.settings, productName: r.productName };
}

export class AlreadyAnswered extends ApiError {
  constructor() {
    super(409, "This order's survey is already answered", { code: 'ALREADY_ANSWERED' });
  }
}

/**
 * The buyer's answer, stored once per order: an option id, or `other` with a free text when the
 * survey allows it. A second answer is refused (409 ALREADY_ANSWERED) and changes nothing.
 */
export async function answerSurvey(deps: Deps, token: string, input: { answer: string; otherText?: string }): Promise<SurveyVisit> {
  const r = await resolve(deps, token);
  if ('kind' in r) return r;
  if (r.order.answeredAt) throw new AlreadyAnswered();
  const text = input.otherText?.trim() ?? '';
  let answerId: string;
  if (input.answer === OTHER_ID) {
    if (!r.settings.allowOther) throw badRequest('This survey has no free-text answer', { field: 'answer' });
    if (!text) throw badRequest('Tell us where you heard about us', { field: 'otherText' });
    if (text.length > LIMITS.otherText) throw badRequest(`The answer is longer than ${LIMITS.otherText} characters`, { field: 'otherText' });
    answerId = OTHER_ID;
  } else {
    if (!r.settings.options.some((o) => o.id === input.answer)) throw badRequest('Choose one of the answers', { field: 'answer' });
    answerId = input.answer;
  }
  const at = deps.clock.now().toISOString();
  const answer = { answerId, otherText: answerId === OTHER_ID ? text : undefined, at };
  const option = r.settings.options.find((o) => o.id === answerId);
  // The answer also lands on the order itself, in the same transaction (sales' write).
  const onOrder = saleAttributionOp(r.scope, r.order.saleId, {
    optionId: answerId,
    label: option ? option.label : text,
    channel: option?.channel ?? null,
    answeredAt: at,
  });
  const ops = [...(r.seen ? repo.answerOps(r.scope, r.order, answer) : repo.firstAnswerOps(r.scope, r.order, answer)), onOrder];
  try {
    await deps.store.transact(ops);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const again = await repo.getSurveyOrder(deps.store, r.scope, r.order.saleId);
    if (again?.refunded) return { kind: 'refunded' };
    if (again?.answeredAt) throw new AlreadyAnswered();
    // The first view landed between our read and write: answer the now-seen order.
    if (again) return answerSurvey(deps, token, input);
    throw error;
  }
  if (answerId === OTHER_ID) {
    await repo
      .countOtherText(deps.store, r.scope, r.order.day, normalizeOtherText(text), 1)
      .catch((error) => logger.warn('survey: other text not counted', { error: String(error) }));
  }
  return { kind: 'answered' };
}

/** `order.refunded`: the order leaves every counter of the report, once. */
export async function onOrderRefunded(deps: Deps, event: DomainEvent): Promise<void> {
  const saleId = (event.data as { order?: { id?: string } }).order?.id;
  if (!saleId) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await markerSeen(deps, REFUND_CONSUMER, event.id, event.created)) return;
    const order = await repo.getSurveyOrder(deps.store, scope, saleId);
    if (order?.refunded) return;
    const marker = repo.markerPut(REFUND_CONSUMER, event.id, event.created);
    const ops = order
      ? repo.refundOps(scope, order, marker)
      : repo.refundedUnseenOps(scope, { saleId, day: '', revenueCents: 0, shownAt: '', refunded: true }, marker);
    try {
      await deps.store.transact(ops);
      if (order?.answerId === OTHER_ID && order.otherText) {
        await repo
          .countOtherText(deps.store, scope, order.day, normalizeOtherText(order.otherText), -1)
          .catch((error) => logger.warn('survey: other text not uncounted', { error: String(error) }));
      }
      return;
    } catch (error) {
      // A view or an answer changed the order meanwhile: read it again.
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new Error(`survey: refund of ${saleId} kept conflicting`);
}

const num = (item: Record<string, unknown>, field: string) => (typeof item[field] === 'number' ? (item[field] as number) : 0);

/** The attribution report of a day range (see the spec's field table). */
export async function attributionReport(ctx: OperationContext, query: { startDate?: string; endDate?: string }) {
  const range = reportRange(ctx.clock.now(), query.startDate, query.endDate);
  const [settings, days, otherDays, links] = await Promise.all([
    loadSettings(ctx, ctx.scope),
    repo.dayCounters(ctx.store, ctx.scope, range.start, range.end),
    repo.otherTextCounters(ctx.store, ctx.scope, range.start, range.end),
    channelStats(ctx, ctx.scope, ctx.account.plan, range.start, range.end),
  ]);
  const sum = (field: string) => days.reduce((total, d) => total + num(d, field), 0);
  const shown = sum('shown');
  const answered = sum('answered');
  const texts = new Map<string, number>();
  for (const d of otherDays) {
    for (const [field, value] of Object.entries(d))
      if (field.startsWith('t:') && typeof value === 'number') texts.set(field.slice(2), (texts.get(field.slice(2)) ?? 0) + value);
  }
  const otherAnswers = sum(answerCountField(OTHER_ID));
  return {
    startDate: range.start,
    endDate: range.end,
    currency: ctx.account.currency,
    totals: { shown, answered, responseRate: percent(answered, shown), revenue: toMajor(sum('revenueCents')) },
    options: settings.options.map((o) => {
      const answers = sum(answerCountField(o.id));
      return { id: o.id, label: o.label, channel: o.channel, answers, share: percent(answers, answered), revenue: toMajor(sum(answerRevenueField(o.id))) };
    }),
    other: {
      answers: otherAnswers,
      share: percent(otherAnswers, answered),
      revenue: toMajor(sum(answerRevenueField(OTHER_ID))),
      topAnswers: topAnswers(texts),
    },
    trackedLinks: links,
  };
}
