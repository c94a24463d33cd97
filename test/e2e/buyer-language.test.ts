import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createOffer, createProduct, openCheckout } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;

const mails = async (to: string): Promise<{ subject: string; html: string; text: string }[]> => (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails;
const page = async (url: string, acceptLanguage?: string) => {
  const res = await fetch(url, { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
  expect(res.status).toBe(200);
  return res.text();
};
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'volume');
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('the buyer\'s language', () => {
  it('the hosted checkout in French, German, Spanish and the fallback; seller text as written', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Le guide des mousses', price: 20, description: 'Written by the seller, in English.' });
    const session = await openCheckout(seller, product._id);

    const fr = await page(session.url, 'fr-CH, fr;q=0.9, en;q=0.8');
    expect(fr).toContain('<html lang="fr">');
    for (const words of ['Récapitulatif de la commande', 'Code de réduction', 'Numéro de carte', 'Payer 20,00', 'Annuler et revenir', 'Des questions ?']) expect(fr).toContain(words);
    expect(fr).toContain('Written by the seller, in English.');
    expect(fr).toContain('Le guide des mousses');

    const de = await page(`${session.url}?lang=de`, 'fr');
    expect(de).toContain('<html lang="de">');
    for (const words of ['Bestellübersicht', 'Rabattcode', 'Kartennummer', '20,00', 'Abbrechen und zurück']) expect(de).toContain(words);
    // The explicit choice stays on the form's address.
    expect(de).toMatch(/action="[^"]+\?lang=de"/);

    const es = await page(session.url, 'es-MX');
    expect(es).toContain('<html lang="es">');
    for (const words of ['Resumen del pedido', 'Código de descuento', 'Número de tarjeta', 'Cancelar y volver']) expect(es).toContain(words);

    // A language not offered: English, unless the seller set a default.
    const ko = await page(session.url, 'ko-KR');
    expect(ko).toContain('<html lang="en">');
    expect(ko).toContain('Order summary');
    expect(ko).toContain('Pay $20.00');
    expect((await seller.test.patch('/account/branding', { locale: 'klingon' })).status).toBe(400);
    expect((await seller.test.patch('/account/branding', { locale: 'pt-BR' })).body.locale).toBe('pt-BR');
    const seller_default = await page(session.url, 'ko-KR');
    expect(seller_default).toContain('<html lang="pt-BR">');
    expect(seller_default).toContain('Resumo do pedido');
    // The buyer's browser still wins over the seller's default.
    expect(await page(session.url, 'ja')).toContain('ご注文内容');
    expect((await seller.test.patch('/account/branding', { locale: null })).body.locale).toBeNull();
    expect(await page(session.url)).toContain('<html lang="en">');

    // Field errors and plurals in the buyer's language.
    const bad = await fetch(session.url, { method: 'POST', body: form({ intent: 'pay', email: 'x', cardNumber: '1', expiry: '1', cvc: '' }), headers: { 'accept-language': 'de' } });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Bitte korrigieren Sie die 4 unten markierten Felder.');
    expect(badHtml).toContain('Die Kartennummer hat 12 bis 19 Ziffern');
  });

  it('a subscription page and its receipt in French for a buyer whose browser asked for French', { timeout: 180_000 }, async () => {
    const offer = await createOffer(seller, { name: 'Club mousse', price: 10, frequency: 'monthly', trialPeriod: 7 });
    const session = await openCheckout(seller, offer._id);
    const html = await page(session.url, 'fr');
    expect(html).toContain('7 jours d’essai gratuit, puis 10,00');
    expect(html).toContain('Se renouvelle chaque mois');

    const product = await createProduct(seller, { name: 'Carnet de terrain', price: 15 });
    const one = await openCheckout(seller, product._id);
    const buyer = `fr-${Date.now()}@example.com`;
    const paid = await fetch(one.url, { method: 'POST', body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }), headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' }, redirect: 'manual' });
    expect(paid.status).toBe(303);
    // The thank-you page keeps the language saved on the checkout, whatever the next request says.
    const thanks = await (await fetch(new URL(paid.headers.get('location')!, one.url))).text();
    expect(thanks).toContain('<html lang="fr">');
    expect(thanks).toContain('Merci !');
    expect(thanks).toContain('Ce que vous avez acheté');

    await settleWithRetries(runtime);
    const received = await mails(buyer);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toMatch(/^Votre reçu de .+ : 15,00\s\$US$/);
    expect(received[0]!.text).toContain('Merci pour votre commande');
    expect(received[0]!.text).toMatch(/Total payé : 15,00\s\$US/);
    expect(received[0]!.text).toMatch(/Commande [0-9a-f]{24}, \d{1,2} \S+ \d{4}/);
  });

  it('the portal speaks the language the buyer chose at checkout', { timeout: 180_000 }, async () => {
    const offer = await createOffer(seller, { name: 'Club des lichens', price: 9, frequency: 'monthly' });
    const session = await openCheckout(seller, offer._id);
    const buyer = `portal-fr-${Date.now()}@example.com`;
    const paid = await fetch(session.url, { method: 'POST', body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }), headers: { 'accept-language': 'fr' }, redirect: 'manual' });
    expect(paid.status).toBe(303);
    await settleWithRetries(runtime);
    const receipt = (await mails(buyer))[0]!;
    const portalUrl = /Gérer votre abonnement : (\S+)/.exec(receipt.text)?.[1];
    expect(portalUrl, receipt.text).toBeTruthy();
    // No Accept-Language on this visit: the language saved at checkout.
    const html = await (await fetch(portalUrl!, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<html lang="fr">');
    for (const words of ['Historique des paiements', 'Résilier l’abonnement', 'Premier paiement', 'Statut :']) expect(html).toContain(words);
    // A browser asking for German does not override the buyer's saved choice.
    expect(await (await fetch(portalUrl!, { headers: { accept: 'text/html', 'accept-language': 'de' } })).text()).toContain('Historique des paiements');
  });
});
