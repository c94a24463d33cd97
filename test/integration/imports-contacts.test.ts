import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import { createAccount } from '../../shared/platform/accounts';
import { createContact, findContactByEmail } from '../../shared/audience/service';
import { contactIdsByEmail, contactIdsForClaims, importContacts, suppressedAmongMany } from '../../shared/audience/bulk';
import { suppressEmail, unsubscribeEmail } from '../../shared/audience/suppression';
import { emailClaim } from '../../shared/audience/bulk-store';
import { emailKey, emailKeyBefore, getContacts } from '../../shared/audience/repository';
import { rowContactId } from '../../shared/imports/row-states';

/**
 * The bulk path of a subscriber import (audience `importContacts`): existing data wins, and a batch
 * redone after a crash recognises its own contacts by the id derived from the row.
 */
describe('imports: contacts in bulk', () => {
  it('creates new addresses, leaves existing contacts untouched, and counts a repeated address once', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const before = await createContact(deps, scope, { email: 'kept@example.com', status: 'unsubscribed', name: 'Kept', source: 'form' });
    const id = (n: number) => rowContactId('65a000000000000000000001', `3#${String(n).padStart(7, '0')}`);
    const outcomes = await importContacts(deps, scope, [
      { id: id(1), email: 'new@example.com', status: 'subscribed', source: 'import', name: 'New' },
      { id: id(2), email: 'Kept@Example.com', status: 'subscribed', source: 'import', name: 'Other' },
      { id: id(3), email: 'new@example.com', status: 'subscribed', source: 'import' },
      { id: id(4), email: 'not-an-address', status: 'subscribed', source: 'import' },
    ]);
    expect(outcomes.map((o) => o.state)).toEqual(['created', 'existing', 'existing', 'failed']);
    expect(outcomes[1]).toEqual({ state: 'existing', contactId: before._id });
    expect(outcomes[2]).toEqual({ state: 'existing', contactId: id(1) });
    expect(await findContactByEmail(deps, scope, 'kept@example.com')).toEqual(before);
    expect(await findContactByEmail(deps, scope, 'new@example.com')).toMatchObject({ _id: id(1), name: 'New', source: 'import', status: 'subscribed' });
  });

  it('a redone batch finds its own contacts created, writes one a crash left as a bare claim, and never overwrites a contact changed since', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const id = (n: number) => rowContactId('65a000000000000000000002', `3#${String(n).padStart(7, '0')}`);
    const inputs = [
      { id: id(1), email: 'a@example.com', status: 'subscribed' as const, source: 'import' as const },
      { id: id(2), email: 'b@example.com', status: 'subscribed' as const, source: 'import' as const },
    ];
    // First attempt: both created; then a's contact unsubscribes.
    expect((await importContacts(deps, scope, inputs)).map((o) => o.state)).toEqual(['created', 'created']);
    await unsubscribeEmail(deps, scope, 'a@example.com');
    // A crashed attempt claimed c's address and died before writing its contact.
    await deps.store.transact([emailClaim(scope, 'c@example.com', id(3))]);
    const redo = await importContacts(deps, scope, [...inputs, { id: id(3), email: 'c@example.com', status: 'subscribed', source: 'import' }]);
    expect(redo.map((o) => o.state)).toEqual(['created', 'created', 'created']);
    expect(await findContactByEmail(deps, scope, 'a@example.com')).toMatchObject({ _id: id(1), status: 'unsubscribed' });
    expect(await findContactByEmail(deps, scope, 'c@example.com')).toMatchObject({ _id: id(3), status: 'subscribed', source: 'import' });
  });

  it('an address taken between the lookup and the claim (a signup meanwhile) is existing, and the import writes no contact for it', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const id = (n: number) => rowContactId('65a000000000000000000003', `3#${String(n).padStart(7, '0')}`);
    // The claims go after the lookup; a signup takes race@ just before they are sent.
    const store = deps.store;
    const send = store.batchStatements.bind(store);
    let signup: Awaited<ReturnType<typeof createContact>> | undefined;
    store.batchStatements = async (statements, concurrency) => {
      signup ??= await createContact(deps, scope, { email: 'race@example.com', status: 'subscribed', source: 'form' });
      return send(statements, concurrency);
    };
    const outcomes = await importContacts(deps, scope, [
      { id: id(1), email: 'race@example.com', status: 'subscribed', source: 'import' },
      { id: id(2), email: 'calm@example.com', status: 'subscribed', source: 'import' },
    ]);
    store.batchStatements = send;
    expect(outcomes).toEqual([
      { state: 'existing', contactId: signup!._id },
      { state: 'created', contactId: id(2) },
    ]);
    expect(await findContactByEmail(deps, scope, 'race@example.com')).toEqual(signup);
    expect((await getContacts(deps.store, scope, [id(1)])).length).toBe(0);
  });

  it('claims without a lookup only while no guard of the earlier layout exists, and an address held in either layout stays existing', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const other = { accountId: account.accountId, mode: 'live' as const };
    const id = (n: number) => rowContactId('65a000000000000000000004', `3#${String(n).padStart(7, '0')}`);
    const kept = await createContact(deps, scope, { email: 'kept@example.com', status: 'subscribed', source: 'form' });
    // No guard of the earlier layout: no lookup, the claims decide (kept@ is found by its failed claim).
    expect(await contactIdsForClaims(deps, scope, ['kept@example.com', 'one@example.com'])).toEqual(new Map());
    const first = await importContacts(
      deps,
      scope,
      [
        { id: id(1), email: 'kept@example.com', status: 'subscribed', source: 'import' },
        { id: id(2), email: 'one@example.com', status: 'subscribed', source: 'import' },
      ],
      { held: new Map() },
    );
    expect(first).toEqual([
      { state: 'existing', contactId: kept._id },
      { state: 'created', contactId: id(2) },
    ]);
    expect((await getContacts(deps.store, scope, [id(1)])).length).toBe(0);
    // A guard an earlier release wrote (one partition per account and mode), that a claim in its shard would not see.
    const guard = (await deps.store.get(emailKey(scope, 'kept@example.com'), { consistent: true }))!;
    await deps.store.put({ ...guard, ...emailKeyBefore(scope, 'old@example.com'), contactId: 'c_old' });
    const held = await contactIdsForClaims(deps, scope, ['old@example.com', 'two@example.com']);
    expect(held).toEqual(new Map([['old@example.com', 'c_old']]));
    expect(await contactIdsByEmail(deps, scope, ['Old@Example.com', 'kept@example.com', 'two@example.com'])).toEqual(
      new Map([
        ['kept@example.com', kept._id],
        ['old@example.com', 'c_old'],
      ]),
    );
    const second = await importContacts(
      deps,
      scope,
      [
        { id: id(3), email: 'old@example.com', status: 'subscribed', source: 'import' },
        { id: id(4), email: 'two@example.com', status: 'subscribed', source: 'import' },
      ],
      { held },
    );
    expect(second).toEqual([
      { state: 'existing', contactId: 'c_old' },
      { state: 'created', contactId: id(4) },
    ]);
    expect(await deps.store.get(emailKey(scope, 'old@example.com'), { consistent: true })).toBeUndefined();
    // The earlier layout's partition is per account and mode: the other mode still claims without a lookup.
    expect(await contactIdsForClaims(deps, other, ['old@example.com'])).toEqual(new Map());
  });

  it('finds suppressed addresses of a batch from the whole list when it is shorter than the batch, else by looking each up', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    expect(await suppressedAmongMany(deps, scope, ['a@example.com'])).toEqual(new Set());
    await suppressEmail(deps, scope, 'a@example.com', 'bounce');
    await suppressEmail(deps, scope, 'b@example.com', 'complaint');
    await suppressEmail(deps, scope, 'c@example.com', 'bounce');
    // Three listed: a batch of four reads the list, a batch of two looks its addresses up.
    expect(await suppressedAmongMany(deps, scope, ['A@example.com', 'b@example.com', 'x@example.com', 'y@example.com'])).toEqual(
      new Set(['a@example.com', 'b@example.com']),
    );
    expect(await suppressedAmongMany(deps, scope, ['c@example.com', 'x@example.com'])).toEqual(new Set(['c@example.com']));
    expect(await suppressedAmongMany(deps, scope, ['x@example.com', 'y@example.com', 'z@example.com'])).toEqual(new Set());
    // The list is per account and mode.
    expect(await suppressedAmongMany(deps, { ...scope, mode: 'live' }, ['a@example.com', 'b@example.com', 'c@example.com', 'x@example.com'])).toEqual(
      new Set(),
    );
  });
});
