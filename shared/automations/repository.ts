import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { AUTOMATION, RUN, SEND, STEP_STAT, type AutomationRecord, type RunRecord, type StepStatRecord } from './records';

// - automation:  PK=<scope>#AUTOMATION, SK=<automationId> (newest first; bounded per seller)
// - run:         PK=<scope>#AUTOMATION#<id>#RUN, SK=<email>; one per contact, created once
// - send marker: PK=<scope>#AUTOMATION#<id>#SEND, SK=<step>#<email>; written in the transaction
//                that queues the mail, so a redelivered timer never mails twice
// - step stat:   PK=<scope>#AUTOMATION#<id>#STEP_STAT, SK=<step, 3 digits>; counters (ADD)

const automationKey = (scope: Scope, id: string) => keys.entity(scope, AUTOMATION, id);
const runKey = (scope: Scope, automationId: string, email: string) => keys.child(scope, AUTOMATION, automationId, RUN, email);
const sendKey = (scope: Scope, automationId: string, step: number, email: string) => keys.child(scope, AUTOMATION, automationId, SEND, `${step}#${email}`);
const statKey = (scope: Scope, automationId: string, step: number) => keys.child(scope, AUTOMATION, automationId, STEP_STAT, String(step).padStart(3, '0'));

export const getAutomation = async (store: Store, scope: Scope, id: string, consistent = false) =>
  toRecord<AutomationRecord>(await store.get(automationKey(scope, id), { consistent }));

export async function listAutomations(store: Store, scope: Scope, page: { limit: number; cursor?: string }) {
  const result = await store.query({ pk: keys.collection(scope, AUTOMATION), limit: page.limit, cursor: page.cursor });
  return { automations: result.items.map((i) => toRecord<AutomationRecord>(i)!), cursor: result.cursor };
}

export const automationWrites = {
  create: (scope: Scope, record: AutomationRecord): TransactOp => ({
    put: toItem(automationKey(scope, record._id), 'Automation', record),
    condition: 'attribute_not_exists(PK)',
  }),
  setStatus: (scope: Scope, id: string, status: string, now: string): TransactOp => ({
    update: automationKey(scope, id),
    set: { status, updatedAt: now },
    condition: 'attribute_exists(PK)',
  }),
  delete: (scope: Scope, id: string): TransactOp => ({ delete: automationKey(scope, id), condition: 'attribute_exists(PK)' }),
  /** The whole record, only if nobody changed it since it was read. */
  replace: (scope: Scope, record: AutomationRecord, readUpdatedAt: string): TransactOp => ({
    put: toItem(automationKey(scope, record._id), 'Automation', record),
    condition: 'updatedAt = :read',
    values: { ':read': readUpdatedAt },
  }),
};

export const getRun = async (store: Store, scope: Scope, automationId: string, email: string) =>
  toRecord<RunRecord>(await store.get(runKey(scope, automationId, email), { consistent: true }));

export const runWrites = {
  create: (scope: Scope, run: RunRecord): TransactOp => ({
    put: toItem(runKey(scope, run.automationId, run.email), 'AutomationRun', run),
    condition: 'attribute_not_exists(PK)',
  }),
  /** Moves the run on only from the step it was read at, so two firings of one timer cannot both act. */
  advance: (scope: Scope, run: RunRecord, change: Pick<RunRecord, 'step' | 'nextAt' | 'done'>): TransactOp => ({
    update: runKey(scope, run.automationId, run.email),
    set: change,
    condition: '#step = :step',
    names: { '#step': 'step' },
    values: { ':step': run.step },
  }),
};

/** Claims the right to send step `step` to `email`; false when it was claimed before. */
/**
 * The send marker of a step for a contact, written in the transaction that queues its mail (the
 * condition makes a redelivered timer queue nothing), with the sent post's id and the step's count
 * when a mail was queued (none when the address is unsubscribed or suppressed).
 */
export const sendOps = (scope: Scope, automationId: string, step: number, email: string, at: string, sentPostId: string | null): TransactOp[] => [
  {
    put: toItem(sendKey(scope, automationId, step, email), 'AutomationSend', { step, email, at, ...(sentPostId ? { sentPostId } : {}) }),
    condition: 'attribute_not_exists(PK)',
  },
  ...(sentPostId ? [{ update: statKey(scope, automationId, step), set: { step, entity: 'AutomationStepStat', v: 1 }, add: { sent: 1 } }] : []),
];

export async function stepStats(store: Store, scope: Scope, automationId: string): Promise<StepStatRecord[]> {
  const items = await store.queryAll({ pk: keys.children(scope, AUTOMATION, automationId, STEP_STAT), ascending: true });
  return items.map((i) => toRecord<StepStatRecord>(i)!);
}

/** One page of the sends of a step (sent post ids, for opens and clicks). */
export async function sendsOfStep(store: Store, scope: Scope, automationId: string, step: number, page: { limit: number; cursor?: string }) {
  const result = await store.query({
    pk: keys.children(scope, AUTOMATION, automationId, SEND),
    beginsWith: `${step}#`,
    ascending: true,
    limit: page.limit,
    cursor: page.cursor,
  });
  return { sends: result.items.map((i) => toRecord<{ email: string; sentPostId?: string }>(i)!), cursor: result.cursor };
}

/** Every automation of the tenant, a page at a time (a seller has few; the trigger consumer reads them). */
export async function allAutomations(store: Store, scope: Scope): Promise<AutomationRecord[]> {
  const out: AutomationRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAutomations(store, scope, { limit: 100, cursor });
    out.push(...page.automations);
    cursor = page.cursor;
  } while (cursor);
  return out;
}
