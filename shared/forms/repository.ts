import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { ConditionFailed, toRecord, type Store, type TransactOp } from '../store/store';
import { FORM, FORM_DAY, type FormDayRecord, type FormPointer, type FormRecord, type PendingConfirmation } from './records';

// - form:        PK=<scope>#FORM, SK=<formId> (newest first; a seller's forms are few, read whole)
// - day:         PK=<scope>#FORM#<id>#DAY, SK=<yyyy-mm-dd> (views and signups, ADD)
// - pointer:     PK=CAP#FORM#<formId> → account and mode (public routes carry no key)
// - confirm:     PK=CAP#FORM_CONFIRM#<token> → a pending double opt-in (TTL 7 days)
// - IP window:   PK=CAP#FORM_IP#<ip>#<windowStart> → signups counted in that 15-minute window (TTL)

const formKey = (scope: Scope, id: string) => keys.entity(scope, FORM, id);
const dayKey = (scope: Scope, id: string, day: string) => keys.child(scope, FORM, id, FORM_DAY, day);
const pointerKey = (id: string) => keys.capability('FORM', id);
const confirmKey = (token: string) => keys.capability('FORM_CONFIRM', token);
const ipKey = (ip: string, windowStart: number) => keys.capability('FORM_IP', `${ip}#${windowStart}`);

export const getForm = async (store: Store, scope: Scope, id: string) => toRecord<FormRecord>(await store.get(formKey(scope, id), { consistent: true }));
export const listForms = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, FORM) })).map((i) => toRecord<FormRecord>(i)!);
export const getPointer = async (store: Store, id: string) => toRecord<FormPointer>(await store.get(pointerKey(id)));
export const getConfirmation = async (store: Store, token: string) =>
  toRecord<PendingConfirmation & { expiresAt?: number }>(await store.get(confirmKey(token), { consistent: true }));

/** The day records between two UTC days (at most 30 items). */
export const listDays = async (store: Store, scope: Scope, id: string, from: string, to: string) =>
  (await store.query({ pk: keys.children(scope, FORM, id, FORM_DAY), between: [from, to], ascending: true, limit: 40 })).items.map(
    (i) => toRecord<FormDayRecord>(i)!,
  );

export const formWrites = {
  create: (scope: Scope, form: FormRecord): TransactOp[] => [
    { put: toItem(formKey(scope, form._id), 'SignupForm', form), condition: 'attribute_not_exists(PK)' },
    {
      put: toItem(pointerKey(form._id), 'SignupFormPointer', { accountId: scope.accountId, mode: scope.mode, formId: form._id } satisfies FormPointer),
      condition: 'attribute_not_exists(PK)',
    },
  ],
  set: (scope: Scope, id: string, set: Partial<FormRecord>): TransactOp => ({ update: formKey(scope, id), set, condition: 'attribute_exists(PK)' }),
  delete: (scope: Scope, id: string): TransactOp[] => [{ delete: formKey(scope, id), condition: 'attribute_exists(PK)' }, { delete: pointerKey(id) }],
  /** Adds to the form's counters and its day's, in one transaction. */
  count: (scope: Scope, id: string, day: string, add: { views?: number; signups?: number }): TransactOp[] => [
    { update: formKey(scope, id), set: { entity: 'SignupForm' }, add, condition: 'attribute_exists(PK)' },
    { update: dayKey(scope, id, day), set: { day, entity: 'SignupFormDay', v: 1, expiresAt: Math.floor(Date.parse(day) / 1000) + 400 * 86_400 }, add },
  ],
};

export const confirmationWrites = {
  create: (token: string, pending: PendingConfirmation, expiresAt: number): TransactOp => ({
    put: toItem(confirmKey(token), 'SignupConfirmation', pending, { expiresAt }),
    condition: 'attribute_not_exists(PK)',
  }),
  /** Used once: a second follow of the link finds nothing to take. */
  take: (token: string): TransactOp => ({ delete: confirmKey(token), condition: 'attribute_exists(PK)' }),
};

/**
 * Counts one signup of `ip` in its 15-minute window; false when the window is full (nothing
 * counted). One conditional ADD: racing requests from one address cannot pass the limit together.
 */
/** Signups counted from one IP in one window (the previous window weighs in the sliding estimate). */
export const ipSignupCount = async (store: Store, ip: string, windowStart: number) =>
  toRecord<{ count: number }>(await store.get(ipKey(ip, windowStart), { consistent: true }))?.count ?? 0;

/** Counts one signup in the window unless `allowed` are already counted there. */
export async function countIpSignup(store: Store, ip: string, windowStart: number, allowed: number, expiresAt: number): Promise<boolean> {
  if (allowed <= 0) return false;
  try {
    await store.update(
      ipKey(ip, windowStart),
      { set: { entity: 'SignupIpWindow', v: 1, expiresAt }, add: { count: 1 } },
      { condition: 'attribute_not_exists(#c) OR #c < :limit', names: { '#c': 'count' }, values: { ':limit': allowed } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}
