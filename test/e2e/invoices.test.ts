import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { createProduct, openCheckout, pay } from '../support/commerce';
import { pdfText } from '../support/pdf-text';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

async function buy(account: TestAccount, body: Record<string, unknown> = {}) {
  const product = await createProduct(account, { name: 'Typesetting Course', price: 49 });
  const session = await openCheckout(account, product._id);
  const paid = await pay(runtime, session.id, { email: 'buyer@example.com', firstName: 'Bea', lastName: 'Buyer', country: 'DE', ...body });
  await settleWithRetries(runtime);
  const order = (await account.test.get(`/orders/${paid.saleId}`)).body as { _id: string; reviewPath: string };
  return { saleId: paid.saleId!, token: order.reviewPath.split('/').pop()! };
}

async function pdfOf(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  return { bytes, text: await pdfText(bytes) };
}

describe('invoices', () => {
  it('the buyer adds company details and a VAT ID, the PDF carries them with a gapless per-seller number; the seller gets the same invoice and a credit note after a refund', {
    timeout: 120_000,
  }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const other = await createTestAccount(runtime, 'tier3');
    const branded = await account.test.request('PATCH', '/account/branding', {
      displayName: 'Ada Books',
      legalName: 'Ada Books GmbH',
      legalAddress: 'Hauptstr. 1, 10115 Berlin, Germany',
      taxId: 'DE811907980',
    });
    expect(branded.status, branded.text).toBe(200);
    expect((await account.test.request('PATCH', '/account/branding', { taxId: '<script>' })).status).toBe(400);

    const first = await buy(account);
    // The receipt mail links to the buyer's invoice page.
    const mails = (await new ApiClient(runtime.url).get('/_local/emails?to=buyer%40example.com')).body.emails as { text: string }[];
    const receipt = mails.find((m) => m.text.includes(first.saleId));
    expect(receipt?.text).toContain(`/receipts/${first.token}/invoice`);
    const page = await fetch(`${runtime.url}/receipts/${first.token}/invoice`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('VAT ID');
    expect(html).toContain('Typesetting Course');

    // A bad VAT ID is refused on the page, nothing issued.
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const refused = await fetch(`${runtime.url}/receipts/${first.token}/invoice`, form({ companyName: 'Buyer Ltd', vatId: '12' }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('two letters for the country');
    const saved = await fetch(
      `${runtime.url}/receipts/${first.token}/invoice`,
      form({ companyName: 'Buyer Trading Ltd', address: '5 Market Street, Dublin, Ireland', vatId: 'ie 6388047 v' }),
    );
    expect(saved.status).toBe(201);
    const savedHtml = await saved.text();
    expect(savedHtml).toContain('TEST-INV-000001');
    expect(savedHtml).toContain('IE6388047V');
    // Details are fixed once issued.
    expect((await fetch(`${runtime.url}/receipts/${first.token}/invoice`, form({ companyName: 'Other' }))).status).toBe(409);

    const buyerPdf = await pdfOf(await fetch(`${runtime.url}/receipts/${first.token}/invoice.pdf`));
    // The buyer's country (DE) picks German; the number, VAT ID and both parties are printed.
    expect(buyerPdf.text).toContain('Rechnung');
    expect(buyerPdf.text).toContain('TEST-INV-000001');
    expect(buyerPdf.text).toContain('IE6388047V');
    expect(buyerPdf.text).toContain('Buyer Trading Ltd');
    expect(buyerPdf.text).toContain('Ada Books GmbH');
    expect(buyerPdf.text).toContain('DE811907980');
    expect(buyerPdf.text).toMatch(/49,00\s?\$/);

    // The seller's copy is the same invoice (English on request); the next order takes the next number.
    const seller = await pdfOf(
      await fetch(`${runtime.url}/orders/${first.saleId}/invoice.pdf?lang=en`, { headers: { authorization: `Bearer ${account.testKey}` } }),
    );
    expect(seller.text).toContain('Invoice');
    expect(seller.text).toContain('TEST-INV-000001');
    expect(seller.text).toContain('IE6388047V');
    const second = await buy(account);
    const secondPdf = await pdfOf(
      await fetch(`${runtime.url}/orders/${second.saleId}/invoice.pdf`, { headers: { authorization: `Bearer ${account.testKey}` } }),
    );
    expect(secondPdf.text).toContain('TEST-INV-000002');
    // Another seller numbers from 1, and cannot reach this seller's order.
    const theirs = await buy(other);
    expect(
      (await pdfOf(await fetch(`${runtime.url}/orders/${theirs.saleId}/invoice.pdf`, { headers: { authorization: `Bearer ${other.testKey}` } }))).text,
    ).toContain('TEST-INV-000001');
    expect((await new ApiClient(runtime.url, other.testKey).get(`/orders/${first.saleId}/invoice.pdf`)).status).toBe(404);
    expect((await new ApiClient(runtime.url, account.liveKey).get(`/orders/${first.saleId}/invoice.pdf`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/receipts/not-a-token/invoice`)).status).toBe(404);

    // Racing first downloads of new orders take distinct numbers, none skipped.
    const more = await Promise.all([buy(account), buy(account), buy(account)]);
    const numbers = await Promise.all(
      more.map(
        async (o) =>
          /TEST-INV-\d{6}/.exec(
            (await pdfOf(await fetch(`${runtime.url}/orders/${o.saleId}/invoice.pdf`, { headers: { authorization: `Bearer ${account.testKey}` } }))).text,
          )![0],
      ),
    );
    expect(numbers.sort()).toEqual(['TEST-INV-000003', 'TEST-INV-000004', 'TEST-INV-000005']);

    // A refund: no credit note before it, one after, with its own number and the refunded amount.
    expect((await account.test.get(`/orders/${second.saleId}/credit-note.pdf`)).status).toBe(409);
    expect((await new ApiClient(runtime.url).post(`/_local/sales/${second.saleId}/refund`, {})).status).toBe(200);
    await settleWithRetries(runtime);
    const note = await pdfOf(await fetch(`${runtime.url}/receipts/${second.token}/credit-note.pdf?lang=en`));
    expect(note.text).toContain('Credit note');
    expect(note.text).toContain('TEST-CN-000001');
    expect(note.text).toContain('TEST-INV-000002');
    expect(note.text).toMatch(/-US\$49\.00|-\$49\.00|US\$-49\.00/);
    const refundedInvoice = await pdfOf(
      await fetch(`${runtime.url}/orders/${second.saleId}/invoice.pdf?lang=en`, { headers: { authorization: `Bearer ${account.testKey}` } }),
    );
    expect(refundedInvoice.text).toContain('Refunded');
  });
});
