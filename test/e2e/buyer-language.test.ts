import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;

const mails = async (to: string): Promise<{ subject: string; html: string; text: string }[]> =>
  (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails;
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

describe("the buyer's language", () => {
  it('the hosted checkout in French, German, Spanish and the fallback; seller text as written', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Le guide des mousses', price: 20, description: 'Written by the seller, in English.' });
    const session = await openCheckout(seller, product._id);

    const fr = await page(session.url, 'fr-CH, fr;q=0.9, en;q=0.8');
    expect(fr).toContain('<html lang="fr">');
    for (const words of ['Récapitulatif de la commande', 'Code de réduction', 'Numéro de carte', 'Payer 20,00', 'Annuler et revenir', 'Des questions ?'])
      expect(fr).toContain(words);
    // The newsletter box's default words too (the seller wrote none).
    expect(fr).toContain('Envoyez-moi les nouveautés et les offres de');
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
    const bad = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: 'x', cardNumber: '1', expiry: '1', cvc: '' }),
      headers: { 'accept-language': 'de' },
    });
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
    const paid = await fetch(one.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
      redirect: 'manual',
    });
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
    const paid = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'fr' },
      redirect: 'manual',
    });
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

  it("the member area and its access mail in the member's language: saved at checkout, else the browser's", { timeout: 180_000 }, async () => {
    const pass = await createProduct(seller, { name: 'Carnet du club', price: 8 });
    const membership = (
      await seller.test.post('/memberships', { name: 'Club des mousses', productIds: [pass._id], productBuyersJoin: true, communityEnabled: true })
    ).body;
    expect(membership._id).toBeTruthy();
    const areaLink = (mail: { html: string }) => /href="([^"]*\/member-area\/[0-9A-Za-z]{32})"/.exec(mail.html)![1]!.replace(/^https?:\/\/[^/]+/, runtime.url);

    // Bought on the hosted page read in French: the access mail and the area speak French.
    const french = `member-fr-${Date.now()}@example.com`;
    const session = await openCheckout(seller, pass._id);
    const paid = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: french, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'fr' },
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    await settleWithRetries(runtime);
    const access = (await mails(french)).find((m) => m.subject === 'Votre accès à Club des mousses');
    expect(access, (await mails(french)).map((m) => m.subject).join(', ')).toBeTruthy();
    expect(access!.text).toContain('Ce lien est personnel');
    const area = areaLink(access!);
    const posts = await page(area);
    expect(posts).toContain('<html lang="fr">');
    for (const words of ['Publications', 'Communauté', 'Aucune publication pour l’instant.']) expect(posts).toContain(words);
    const community = await page(`${area}/community`, 'de');
    // The language saved at checkout wins over this browser's.
    for (const words of ['Lancer une discussion', 'Publier la discussion', 'Club des mousses']) expect(community).toContain(words);

    // Joined without a saved language (paid through the API): the browser decides, ?lang= above all.
    const plain = `member-plain-${Date.now()}@example.com`;
    await pay(runtime, (await openCheckout(seller, pass._id)).id, { email: plain });
    await settleWithRetries(runtime);
    const english = (await mails(plain)).find((m) => m.subject === 'Your access to Club des mousses')!;
    expect(english.text).toContain('This link is personal');
    const plainArea = areaLink(english);
    const german = await page(plainArea, 'de-DE,de;q=0.9');
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('Noch keine Beiträge.');
    expect(await page(`${plainArea}?lang=es`, 'de')).toContain('Todavía no hay publicaciones.');
    expect(await page(plainArea)).toContain('No posts yet.');
    // A refused link says why in the browser's language.
    const refused = await fetch(`${runtime.url}/member-area/${'A'.repeat(32)}`, { headers: { 'accept-language': 'fr' } });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('Ce lien n’est pas valide');
  });

  it("a signup form's confirmation mail and page in the browser's language; the creator's words as written", { timeout: 120_000 }, async () => {
    const created = await seller.test.post('/forms', {
      name: 'Lettre',
      doubleOptIn: true,
      headline: 'Join the moss letter',
      successHeadline: 'Welcome aboard, moss friend',
    });
    expect(created.status, created.text).toBe(201);
    const email = `form-fr-${Date.now()}@example.com`;
    const signup = await fetch(`${runtime.url}/forms/public/${created.body._id}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'fr-FR,fr;q=0.9' },
      body: JSON.stringify({ email, elapsedMs: 4000 }),
    });
    expect(signup.status).toBe(200);
    await settleWithRetries(runtime);
    const [mail] = await mails(email);
    expect(mail!.subject).toBe('Veuillez confirmer votre inscription');
    expect(mail!.html).toContain('Join the moss letter');
    const link = /href="([^"]+)"[^>]*>Confirmer mon inscription/.exec(mail!.html)![1]!.replace(/&amp;/g, '&');
    // No Accept-Language on the click: the link (through the click tracker) keeps the mail's language.
    const confirmed = await page(link);
    expect(confirmed).toContain('<html lang="fr">');
    expect(confirmed).toContain('Welcome aboard, moss friend');
    const again = await fetch(link, { headers: { 'accept-language': 'de' } });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('Ce lien ne fonctionne plus');
  });

  it('the invoice page, the download page, the receipt with files and key, and the refund mail in French', { timeout: 180_000 }, async () => {
    const product = await createProduct(seller, { name: 'Atlas des lichens', price: 30, licenseKeys: { enabled: true, activationLimit: 2 } });
    const upload = new FormData();
    upload.set('file', new Blob([new Uint8Array(Buffer.from('lichens'.repeat(2000)))], { type: 'application/pdf' }), 'atlas.pdf');
    expect((await seller.test.post(`/products/${product._id}/files`, upload)).status).toBe(201);
    const buyer = `files-fr-${Date.now()}@example.com`;
    const session = await openCheckout(seller, product._id);
    const paid = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'fr' },
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    await settleWithRetries(runtime);
    const receipt = (await mails(buyer)).find((m) => m.subject.startsWith('Votre reçu'))!;
    expect(receipt.text).toMatch(/Votre clé de licence\s: [A-Z2-9-]{35}/);
    const downloads = /Télécharger vos fichiers\s: (\S+)/.exec(receipt.text)![1]!;
    expect(downloads).toContain('lang=fr');
    const downloadsPage = await page(downloads, 'en');
    expect(downloadsPage).toContain('<html lang="fr">');
    expect(downloadsPage).toContain('Vos téléchargements');
    expect(downloadsPage).toContain('atlas.pdf');
    expect(downloadsPage).toMatch(/\(14\sko\)/);

    // The invoice page: saved language without any header, the browser's when asked, ?lang= above both.
    const invoiceUrl = /Votre facture\s: (\S+)/.exec(receipt.text)![1]!;
    const invoice = await page(invoiceUrl);
    expect(invoice).toContain('<html lang="fr">');
    for (const words of ['Votre facture', 'Nom de l’entreprise', 'Atlas des lichens', '30,00', 'Télécharger sans coordonnées d’entreprise'])
      expect(invoice).toContain(words);
    expect(invoice).toContain('invoice.pdf?lang=fr');
    expect(await page(`${invoiceUrl}?lang=de`)).toContain('Firmenname');
    const badVat = new URLSearchParams({ companyName: 'Mousses SARL', vatId: '12' });
    const refused = await fetch(invoiceUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: badVat.toString() });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Saisissez les deux lettres du pays');
    expect(await fetch(invoiceUrl.replace(/receipts\/[^/]+/, 'receipts/nope'), { headers: { 'accept-language': 'fr' } }).then((r) => r.text())).toContain(
      'Facture introuvable',
    );

    // A refund: the mail in French, and the download page says the files are gone.
    const saleId = (await seller.test.get('/orders')).body.find((o: { buyerEmail: string }) => o.buyerEmail === buyer)._id;
    expect((await control(runtime).post(`/_local/sales/${saleId}/refund`, {})).status).toBe(200);
    await settleWithRetries(runtime);
    const refund = (await mails(buyer)).find((m) => m.subject.startsWith('Votre remboursement'))!;
    expect(refund.subject).toMatch(/^Votre remboursement pour Atlas des lichens\s: 30,00\s\$US$/);
    expect(refund.text).toMatch(/vous a remboursé votre paiement de 30,00\s\$US pour Atlas des lichens le \d{1,2} \S+ \d{4}\./);
    expect(refund.text).toContain('Mode test');
    expect(await page(downloads)).toContain('ne sont plus disponibles');
  });

  it("buy-link problems, the survey, unsubscribing and the balance page speak the buyer's language too", { timeout: 180_000 }, async () => {
    const product = await createProduct(seller, { name: 'Graines de mousse', price: 6 });
    // A buy link's problem page follows the browser; ?lang= is carried on to the checkout it opens.
    const wrong = await fetch(`${runtime.url}/buy/${product._id}?amount=lots`, { headers: { 'accept-language': 'de' }, redirect: 'manual' });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('<html lang="de">');
    expect(wrongHtml).toContain('Dieser Link enthält einen falschen Betrag');
    const opened = await fetch(`${runtime.url}/buy/${product._id}?lang=ja`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(await page(opened.headers.get('location')!, 'fr')).toContain('<html lang="ja">');

    // The survey linked from a French receipt opens in French; the seller's question stays as written.
    expect(
      (
        await seller.test.put('/attribution-survey/settings', {
          enabled: true,
          question: 'How did you find us?',
          options: [
            { label: 'Instagram', channel: 'instagram' },
            { label: 'YouTube', channel: 'youtube' },
          ],
          allowOther: true,
        })
      ).status,
    ).toBe(200);
    const buyer = `survey-fr-${Date.now()}@example.com`;
    const session = await openCheckout(seller, product._id);
    const paid = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'fr' },
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    await settleWithRetries(runtime);
    const receipt = (await mails(buyer)).find((m) => m.subject.startsWith('Votre reçu'))!;
    const surveyLink = /Comment nous avez-vous connus\s\? (\S+)/.exec(receipt.text)![1]!;
    const survey = await page(surveyLink);
    expect(survey).toContain('<html lang="fr">');
    for (const words of ['Merci d’avoir acheté Graines de mousse.', 'How did you find us?', 'Ailleurs', 'Envoyer la réponse']) expect(survey).toContain(words);

    // The mail's own footer speaks French; unsubscribing from it follows the browser's language.
    expect(receipt.html).toContain('<html lang="fr"');
    const unsubscribe = /Se désabonner\s: (\S+)/.exec(receipt.text)?.[1];
    expect(unsubscribe, receipt.text).toBeTruthy();
    const ask = await page(unsubscribe!, 'es');
    expect(ask).toContain('<html lang="es">');
    expect(ask).toContain('Darse de baja');
    const invalid = await fetch(`${runtime.url}/email/unsubscribe/nonsense.token`, { headers: { 'accept-language': 'pt-BR' } });
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain('Este link não é válido');

    // A balance link that opens nothing, in the browser's language.
    const balance = await fetch(`${runtime.url}/credits/balance/${'A'.repeat(32)}`, { headers: { accept: 'text/html', 'accept-language': 'fr' } });
    expect(balance.status).toBe(404);
    expect(await balance.text()).toContain('Ce lien n’ouvre aucun solde.');
  });
});
