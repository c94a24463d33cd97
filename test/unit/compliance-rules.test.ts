import { describe, expect, it } from 'vitest';
import { activityMatches, type ActivityEntry } from '../../shared/platform/activity';
import { emailHash, withoutEmail } from '../../shared/platform/privacy';
import { auditActor } from '../../shared/audit/service';
import { chooseLanguage, formatAmount } from '../../shared/invoices/labels';
import { formatNumber } from '../../shared/invoices/numbering';
import { buyerDetails, normaliseVatId } from '../../shared/invoices/rules';
import { invoiceDocument } from '../../shared/invoices/document';
import type { SaleRecord } from '../../shared/sales/records';

const entry = (actor: ActivityEntry['actor'], action = 'createProduct', target = 'p1'): ActivityEntry => ({
  _id: '6b0929311272e949cf5a3829',
  at: '2026-11-27T08:00:00.000Z',
  actor,
  action,
  target: { type: 'Products', id: target },
});

describe('audit log rules', () => {
  it('names the actor by one id: key, member, owner session, staff, system', () => {
    expect(auditActor(entry({ type: 'owner_key', keyId: 'k1' }), 'acc')).toEqual({ type: 'api_key', id: 'k1' });
    expect(auditActor(entry({ type: 'owner_key' }), 'acc')).toEqual({ type: 'owner', id: 'acc' });
    expect(auditActor(entry({ type: 'owner_key', staff: true }), 'acc')).toEqual({ type: 'staff', id: 'staff' });
    expect(auditActor(entry({ type: 'member', memberId: 'm1', email: 'a@b.c' }), 'acc')).toEqual({ type: 'member', id: 'm1', email: 'a@b.c' });
    expect(auditActor(entry({ type: 'system' }), 'acc')).toEqual({ type: 'system', id: 'system' });
  });

  it('filters by actor (key, member id or email, staff), action and target', () => {
    const byKey = entry({ type: 'owner_key', keyId: 'k1' });
    const byMember = entry({ type: 'member', memberId: 'm1', email: 'Ann@Example.com' }, 'deleteProduct', 'p2');
    expect(activityMatches(byKey, { actor: 'k1' })).toBe(true);
    expect(activityMatches(byKey, { actor: 'm1' })).toBe(false);
    expect(activityMatches(byMember, { actor: 'ann@example.com' })).toBe(true);
    expect(activityMatches(byMember, { actor: 'staff' })).toBe(false);
    expect(activityMatches(entry({ type: 'owner_key', staff: true }), { actor: 'staff' })).toBe(true);
    expect(activityMatches(byMember, { action: 'deleteProduct', target: 'p2' })).toBe(true);
    expect(activityMatches(byMember, { action: 'deleteProduct', target: 'p1' })).toBe(false);
  });
});

describe('privacy rules', () => {
  it('hashes an email case- and space-insensitively, never keeping it', () => {
    expect(emailHash(' Erin@Example.com ')).toBe(emailHash('erin@example.com'));
    expect(emailHash('erin@example.com')).toMatch(/^[0-9a-f]{64}$/);
    expect(emailHash('erin@example.com')).not.toBe(emailHash('erin@example.org'));
  });
});

describe('invoice rules', () => {
  it('numbers per sequence and mode, and refuses a counter that is not a positive integer', () => {
    expect(formatNumber('invoice', 'live', 42)).toBe('INV-000042');
    expect(formatNumber('credit_note', 'live', 3)).toBe('CN-000003');
    expect(formatNumber('invoice', 'test', 1)).toBe('TEST-INV-000001');
    expect(() => formatNumber('invoice', 'live', 0)).toThrow();
    expect(() => formatNumber('invoice', 'live', 1.5)).toThrow();
  });

  it('takes VAT IDs as people type them, and refuses what is not one', () => {
    expect(normaliseVatId('de 123.456-789')).toBe('DE123456789');
    expect(normaliseVatId('IE6388047V')).toBe('IE6388047V');
    expect(() => normaliseVatId('12345')).toThrow('two letters');
    expect(() => normaliseVatId('DE')).toThrow();
    expect(buyerDetails({ companyName: '  Acme  ', address: '', vatId: 'fr 40 303 265 045' })).toEqual({
      companyName: 'Acme',
      address: null,
      vatId: 'FR40303265045',
    });
    expect(() => buyerDetails({ companyName: 'x'.repeat(201) })).toThrow('at most 200');
    expect(() => buyerDetails({ address: 5 })).toThrow('text expected');
  });

  it("speaks the language asked for, else the country's, else English", () => {
    expect(chooseLanguage('fr', 'DE')).toBe('fr');
    expect(chooseLanguage(undefined, 'AT')).toBe('de');
    expect(chooseLanguage('xx', 'ES')).toBe('es');
    expect(chooseLanguage(undefined, 'US')).toBe('en');
    expect(formatAmount(4900, 'EUR', 'de')).toMatch(/49,00\s€/);
  });

  it('prints a code as the difference from the price, and a credit note as the refunded amount', () => {
    const sale = {
      _id: 's1',
      type: 'one_time',
      productId: 'p1',
      productName: 'Course',
      subscriptionId: null,
      subscriberId: null,
      customerId: 'c1',
      buyerEmail: 'b@example.com',
      firstName: 'Bea',
      lastName: null,
      country: 'DE',
      amountCents: 4000,
      originalAmountCents: 5000,
      currency: 'EUR',
      discountCode: 'TEN',
      status: 'refunded',
      refundedCents: 4000,
      paymentIntentId: null,
      planId: null,
      membershipId: null,
      paymentMethod: null,
      checkoutSessionId: null,
      clientReferenceId: null,
      metadata: {},
      free: false,
      testMode: false,
      createdAt: '2026-11-01T00:00:00.000Z',
    } as SaleRecord;
    const invoice = {
      saleId: 's1',
      number: 'INV-000001',
      issuedAt: '2026-11-01T00:00:00.000Z',
      buyer: { companyName: null, address: null, vatId: null },
      creditNote: { number: 'CN-000001', issuedAt: '2026-11-02T00:00:00.000Z', amountCents: 4000 },
    };
    const seller = { displayName: 'Ada', legalName: null, legalAddress: null, taxId: null, supportEmail: null };
    const doc = invoiceDocument({ sale, invoice, seller, kind: 'invoice' });
    expect(doc).toMatchObject({
      language: 'de',
      lines: [{ description: 'Course', amountCents: 5000 }],
      discount: { code: 'TEN', amountCents: 1000 },
      totalCents: 4000,
      state: 'refunded',
      seller: { name: 'Ada' },
    });
    const note = invoiceDocument({ sale, invoice, seller, kind: 'credit_note', lang: 'en' });
    expect(note).toMatchObject({ number: 'CN-000001', creditFor: 'INV-000001', totalCents: -4000, language: 'en' });
  });
});

describe('withoutEmail (event and webhook log bodies)', () => {
  it('empties the address and the names beside it, wherever it is, and leaves other buyers alone', () => {
    const body = JSON.stringify({
      type: 'order.completed',
      data: {
        order: { id: 'o1', amountCents: 1900 },
        customer: { email: 'Erin@Example.com', firstName: 'Erin', lastName: 'Rased', country: 'DE' },
        note: 'sent to erin@example.com today',
        others: [{ email: 'bea@example.com', firstName: 'Bea' }],
      },
    });
    const out = JSON.parse(withoutEmail(body, 'erin@example.com')!);
    expect(out.data.customer).toEqual({ email: '', firstName: null, lastName: null, country: 'DE' });
    expect(out.data.note).toBe('sent to  today');
    expect(out.data.order).toEqual({ id: 'o1', amountCents: 1900 });
    expect(out.data.others).toEqual([{ email: 'bea@example.com', firstName: 'Bea' }]);
    expect(withoutEmail(body, 'nobody@example.com')).toBeUndefined();
    expect(withoutEmail('not json: erin@example.com.', 'erin@example.com')).toBe('not json: .');
  });
});
