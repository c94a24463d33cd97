import { beforeAll, describe, expect, it } from 'vitest';
import { accentOnWhite, contrast, textOnAccent } from '../../shared/account/branding-rules';
import { buyerPage } from '../../shared/account/buyer-page';
import { createHash } from 'node:crypto';
import { checkCard } from '../../shared/adapters/processor-sandbox/card-fields';
import { introSchedule, successAddress } from '../../shared/adapters/processor-sandbox/page';
import { crossSite, csrfToken, csrfValid } from '../../shared/subscriptions/portal-csrf';
import { failedPaymentMail, receiptMail } from '../../shared/receipts/mails';
import { refundMail } from '../../shared/receipts/notices';
import { invoicePage } from '../../shared/invoices/pages';
import { receiptDownloadsPage } from '../../shared/product-files/page';
import { buildMailTemplate } from '../../shared/email/mail-builder';
import { unsubscribeWords } from '../../shared/email/service';
import { translator, loadedTranslator, loadTranslator } from '../../shared/platform/i18n/translator';
import { LOCALES } from '../../shared/platform/i18n/locales';
import type { SaleRecord } from '../../shared/sales/records';

// Every language's catalogue, loaded as a buyer's request would load it (each but English is imported on first use).
beforeAll(async () => {
  for (const locale of LOCALES) await loadTranslator(locale);
});

const now = new Date('2026-11-22T10:00:00Z');
const brand = {
  name: 'Ada <Studio>',
  logoUrl: null,
  accent: '#ffcc00',
  accentText: accentOnWhite('#ffcc00'),
  onAccent: textOnAccent('#ffcc00'),
  supportEmail: 'help@ada.example',
};

describe('card fields of the hosted page', () => {
  it('accepts a test card with a future expiry and a 3-digit code', () => {
    expect(checkCard({ cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }, now)).toEqual({ number: '4242424242424242', errors: {} });
    expect(checkCard({ cardNumber: '4242424242424242', expiry: '11/2026', cvc: '1234' }, now).errors).toEqual({});
  });
  it('names each problem: missing, malformed, expired', () => {
    expect(checkCard({}, now).errors).toEqual({
      cardNumber: 'Enter the card number',
      expiry: 'Enter the expiry date as MM/YY',
      cvc: 'Enter the security code',
    });
    const bad = checkCard({ cardNumber: '4242', expiry: '13/30', cvc: '12a' }, now);
    expect(bad.number).toBeUndefined();
    expect(bad.errors).toEqual({
      cardNumber: 'The card number is 12 to 19 digits',
      expiry: 'The expiry date is MM/YY, for example 12/30',
      cvc: 'The security code is 3 or 4 digits',
    });
    expect(checkCard({ cardNumber: '4242424242424242', expiry: '10/26', cvc: '123' }, now).errors).toEqual({ expiry: 'This card has expired' });
  });
});

describe('branding colours', () => {
  it('picks the readable text colour on the accent and darkens a pale accent for links', () => {
    expect(textOnAccent('#ffcc00')).toBe('#111111');
    expect(textOnAccent('#1d4ed8')).toBe('#ffffff');
    expect(contrast(accentOnWhite('#ffcc00'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(accentOnWhite('#1d4ed8')).toBe('#1d4ed8');
  });
});

describe('buyer page frame', () => {
  it('escapes the seller name and allows its one style block by hash, with no script or inline allowance', () => {
    const page = buyerPage({ brand, title: 'T', body: '<p>x</p>', baseUrl: 'https://pay.example.com' });
    expect(page.html).toContain('Ada &lt;Studio&gt;');
    expect(page.html).not.toContain('<script');
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.html)![1]!;
    const csp = page.headers['content-security-policy']!;
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });
  it('appends session_id to the success address, keeping its query', () => {
    expect(successAddress('https://shop.example.com/thanks?x=1', 'abc')).toBe('https://shop.example.com/thanks?x=1&session_id=abc');
  });
});

describe('portal CSRF', () => {
  it('accepts only the token made for that subscriber with that portal token', () => {
    const token = csrfToken('portal-secret', 'sub1');
    expect(csrfValid('portal-secret', 'sub1', token)).toBe(true);
    expect(csrfValid('portal-secret', 'sub2', token)).toBe(false);
    expect(csrfValid('other-secret', 'sub1', token)).toBe(false);
    expect(csrfValid('portal-secret', 'sub1', undefined)).toBe(false);
  });
  it('refuses posts the browser marks as cross-site', () => {
    const own = ['https://api.example.com'];
    expect(crossSite({ origin: 'https://evil.example' }, own)).toBe(true);
    expect(crossSite({ origin: 'https://api.example.com', 'sec-fetch-site': 'cross-site' }, own)).toBe(true);
    expect(crossSite({ origin: 'null' }, own)).toBe(true);
    expect(crossSite({ origin: 'https://api.example.com', 'sec-fetch-site': 'same-origin' }, own)).toBe(false);
    expect(crossSite({ origin: 'https://api.example.com' }, own)).toBe(false);
    expect(crossSite({}, own)).toBe(false);
  });
});

describe('buyer mails', () => {
  it('a renewal receipt shows the amount, the discount and the portal link', () => {
    const mail = receiptMail({
      brand,
      orderId: 'o1',
      productName: 'Pro',
      amountCents: 800,
      currency: 'USD',
      kind: 'subscription',
      billingReason: 'renewal',
      interval: 'monthly',
      discount: { code: 'TEN', amountOffCents: 200 },
      paidAt: '2026-11-22T10:00:00Z',
      reviewUrl: null,
      portalUrl: 'https://api.example.com/p?token=t',
      testMode: true,
    });
    expect(mail.subject).toBe('Your receipt from Ada <Studio>: $8.00');
    expect(mail.html).toContain('Renewal of Pro');
    expect(mail.html).toContain('-$2.00');
    expect(mail.html).toContain('href="https://api.example.com/p?token=t"');
    expect(mail.text).toContain('Total paid: $8.00');
    expect(mail.html).toContain('mailto:help@ada.example');
  });
  it('a failed payment names the retry and links to the portal to update the card', () => {
    const mail = failedPaymentMail({
      brand,
      productName: 'Pro',
      amountCents: 1000,
      currency: 'EUR',
      failureMessage: 'Your card was declined.',
      nextRetryAt: '2026-11-25T00:00:00Z',
      portalUrl: 'https://api.example.com/p',
      testMode: false,
    });
    expect(mail.subject).toContain('failed');
    expect(mail.text).toContain('€10.00: Your card was declined. We will try again on November 25, 2026.');
    expect(mail.html).toContain('Update card and manage subscription');
    // With the processor's card link, the mail's button goes there and the portal stays a link.
    const withCard = failedPaymentMail({
      brand,
      productName: 'Pro',
      amountCents: 1000,
      currency: 'EUR',
      failureMessage: null,
      nextRetryAt: null,
      portalUrl: 'https://api.example.com/p',
      cardUpdateUrl: 'https://api.example.com/c?token=t',
      testMode: false,
    });
    expect(withCard.text).toContain('Update your card: https://api.example.com/c?token=t');
    expect(withCard.text).toContain('Manage your subscription: https://api.example.com/p');
    expect(withCard.html).toContain('href="https://api.example.com/c?token=t"');
  });
  it('a receipt links the download page of the files bought and shows the licence keys', () => {
    const mail = receiptMail({
      brand,
      orderId: 'o1',
      productName: 'Guide',
      amountCents: 500,
      currency: 'USD',
      kind: 'one_time',
      billingReason: null,
      interval: null,
      discount: null,
      paidAt: now.toISOString(),
      reviewUrl: null,
      portalUrl: null,
      downloadsUrl: 'https://api.example.com/downloads/orders/t?a=1&b=<2>',
      licenseKeys: ['ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2-34567'],
      testMode: false,
    });
    expect(mail.text).toContain('Download your files: https://api.example.com/downloads/orders/t?a=1&b=<2>');
    expect(mail.html).toContain('href="https://api.example.com/downloads/orders/t?a=1&amp;b=&lt;2&gt;"');
    expect(mail.text).toContain('Your licence key: ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2-34567');
    expect(mail.html).toContain('<code>ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2-34567</code>');
  });
});

describe('intro price and upsell lines', () => {
  it('states every charge of an intro price: the intro price today and for the rest of its charges, then the regular price', () => {
    const view = { kind: 'subscription' as const, interval: 'monthly' as const, currency: 'USD', intro: { amountCents: 500, periods: 3 } };
    expect(introSchedule(view, 2000)).toBe('$5.00 today, then $5.00 / month for the next 2 months, then $20.00 / month');
    expect(introSchedule({ ...view, interval: 'yearly', intro: { amountCents: 9900, periods: 2 } }, 15000)).toBe(
      '$99.00 today, then $99.00 / year for the next year, then $150.00 / year',
    );
    // One charge at the intro price: the price line beside it says what follows.
    expect(introSchedule({ ...view, intro: { amountCents: 500, periods: 1 } }, 2000)).toBe('$5.00');
    expect(introSchedule({ ...view, intro: null }, 2000)).toBeNull();
    expect(introSchedule({ ...view, kind: 'one_time' }, 2000)).toBeNull();
  });
  it('a receipt of a checkout with its upsell lists both lines, the code, and the total', () => {
    const mail = receiptMail({
      brand,
      orderId: 'o2',
      productName: 'Guide',
      amountCents: 4500,
      currency: 'USD',
      kind: 'one_time',
      billingReason: null,
      interval: null,
      discount: { code: 'HERB25', amountOffCents: 1000 },
      lines: [
        { name: 'Guide', amountCents: 3000 },
        { name: 'Kit <b>', amountCents: 1500 },
      ],
      paidAt: now.toISOString(),
      reviewUrl: null,
      portalUrl: null,
      testMode: false,
    });
    expect(mail.text).toContain('Guide: $30.00\n\nKit <b>: $15.00');
    expect(mail.text).toContain('Total paid: $45.00');
    expect(mail.html).toContain('Kit &lt;b&gt;');
    expect(mail.html).toContain('Discount HERB25 on Guide');
  });
});

describe("after the sale, in the buyer's language", () => {
  it('a refund mail: full or partial, money and date by the language, the product as written', () => {
    const base = { brand, productName: 'Guide <2>', refundedCents: 500, paidCents: 2000, currency: 'EUR', refundedAt: '2026-03-04T10:00:00Z', testMode: false };
    const en = refundMail({ ...base, full: false });
    expect(en.subject).toBe('Your refund for Guide <2>: €5.00');
    expect(en.text).toContain('Ada <Studio> refunded €5.00 of your €20.00 payment for Guide <2> on March 4, 2026.');
    expect(en.html).toContain('Guide &lt;2&gt;');
    expect(en.locale).toBe('en');
    const de = refundMail({ ...base, full: true, testMode: true }, loadedTranslator('de'));
    expect(de.subject).toMatch(/^Ihre Erstattung für Guide <2>: 5,00\s€$/);
    expect(de.text).toMatch(/Ada <Studio> hat Ihnen am 4\. März 2026 Ihre Zahlung von 5,00\s€ für Guide <2> erstattet\./);
    expect(de.text).toContain('Testmodus');
    expect(refundMail({ ...base, full: true }, loadedTranslator('ja')).subject).toBe('Guide <2> の返金：€5.00');
  });

  it('the invoice page and the download page: words translated, seller text and numbers as they are', () => {
    const sale = { productName: 'Atlas', amountCents: 3000, currency: 'EUR', createdAt: '2026-03-04T10:00:00Z', refundedCents: 0 } as SaleRecord;
    const fr = invoicePage({
      brand,
      baseUrl: 'https://api.example',
      token: 'tok',
      sale,
      invoice: undefined,
      t: loadedTranslator('fr'),
      error: { message: 'VAT ID: two letters', field: 'vatId', status: 400 },
    }).html;
    expect(fr).toContain('<html lang="fr">');
    for (const words of ['Votre facture', 'Nom de l’entreprise', 'Saisissez les deux lettres du pays', '30,00', '4 mars 2026', 'invoice.pdf?lang=fr'])
      expect(fr).toContain(words);
    const ja = invoicePage({ brand, baseUrl: '', token: 'tok', sale, invoice: undefined, t: loadedTranslator('ja') }).html;
    expect(ja).toContain('会社名');
    // The PDF speaks no Japanese: its link lets the invoice choose.
    expect(ja).not.toContain('invoice.pdf?lang=');
    const page = receiptDownloadsPage(
      brand,
      '',
      [{ fileId: 'f', name: 'atlas.pdf', size: 2 * 1024 * 1024, url: 'https://x/d', expiresAt: '' }],
      false,
      loadedTranslator('pt-BR'),
    ).html;
    expect(page).toContain('<html lang="pt-BR">');
    expect(page).toContain('Seus downloads');
    expect(page).toMatch(/2,0\sMB/);
  });

  it("a mail's footer speaks the mail's language; without one, English", async () => {
    const footer = { physicalAddress: '1 Main St' };
    const es = buildMailTemplate({ subject: 'Hola', text: 'Cuerpo', locale: 'es' }, { ...footer, unsubscribe: await unsubscribeWords('es') });
    expect(es.html).toContain('<html lang="es"');
    expect(es.html).toContain('>Darse de baja</a>');
    expect(es.text).toMatch(/Darse de baja: \{\{u\}\}$/);
    const plain = buildMailTemplate({ subject: 'Hi', text: 'Body' }, footer);
    expect(plain.text).toMatch(/Unsubscribe: \{\{u\}\}$/);
    expect(await unsubscribeWords('en')).toBeUndefined();
    expect((await unsubscribeWords('fr'))?.line).toMatch(/^Se désabonner\s: \{\{u\}\}$/);
  });
});
