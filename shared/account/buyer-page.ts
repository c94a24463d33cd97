import { createHash } from 'node:crypto';
import type { SellerBrand } from './branding';
import type { Locale } from '../platform/i18n/locales';
import { formatMoneyIn, loadedTranslator, translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

/**
 * The one frame of every page a buyer meets (hosted checkout, thank-you, portal): the seller's
 * name, logo and accent, no script and no third-party asset, and the headers that go with it. The
 * style block is allowed by its hash, so the Content-Security-Policy needs no 'unsafe-inline'.
 */

const FREQUENCY_WORD = { weekly: 'week', monthly: 'month', yearly: 'year' } as const;

export const formatMoney = (cents: number, currency: string, locale = 'en'): string => formatMoneyIn(locale, cents, currency);

export const perInterval = (interval: keyof typeof FREQUENCY_WORD | null | undefined) => (interval ? ` / ${FREQUENCY_WORD[interval]}` : '');

/** The buyer pages' style in the seller's colours (member-area pages add theirs under a nonce). */
export const buyerStyle = (brand: SellerBrand): string => css(brand);

/** The seller's name and logo, as every buyer page opens. */
export const sellerHeader = (brand: SellerBrand): string =>
  `<header class="seller">${brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="">` : ''}<span class="name">${escapeHtml(brand.name)}</span></header>`;

const css = (brand: SellerBrand) => `
:root{--accent:${brand.accent};--accent-text:${brand.accentText};--on-accent:${brand.onAccent}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f4f5f7}
main{max-width:34rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:1.25rem;margin-bottom:1rem}
header.seller{display:flex;align-items:center;gap:.75rem;padding:1rem 0}
header.seller img{height:40px;width:auto;max-width:160px;object-fit:contain}
header.seller .name{font-weight:600;font-size:1.1rem}
h1{font-size:1.4rem;margin:.25rem 0 .5rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
.product{display:flex;gap:1rem;align-items:flex-start}
.product img{width:96px;height:96px;object-fit:cover;border-radius:8px;flex:none}
.price{font-size:1.5rem;font-weight:700;margin:.25rem 0}
.was{text-decoration:line-through;color:#57606a;font-weight:400;font-size:1rem;margin-right:.5rem}
.muted{color:#57606a;font-size:.9rem}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#eef1f4;border:1px solid #d0d7de;font-size:.85rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email]{width:100%;padding:.65rem .75rem;font-size:1rem;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent-text);outline-offset:2px}
input[aria-invalid=true]{border-color:#cf222e;border-width:2px}
.row{display:flex;gap:.75rem}.row>div{flex:1;min-width:0}
.inline{display:flex;gap:.5rem;align-items:flex-end}.inline>div{flex:1}
button{font:inherit;cursor:pointer;border-radius:8px;padding:.7rem 1rem;border:1px solid var(--accent-text);background:#fff;color:var(--accent-text);font-weight:600}
button.primary{width:100%;margin-top:1.25rem;background:var(--accent);color:var(--on-accent);border-color:var(--accent);font-size:1.05rem}
.field-error{color:#cf222e;font-size:.9rem;margin:.25rem 0 0}
.alert{border:2px solid #cf222e;background:#ffebe9;color:#82071e;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.ok{border:2px solid #1a7f37;background:#dafbe1;color:#055d20;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.test{border:1px dashed #9a6700;background:#fff8c5;color:#4d2d00;border-radius:8px;padding:.75rem;font-size:.9rem}
a{color:var(--accent-text)}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #d8dee4}td.num,th.num{text-align:right}
.upsell{border:2px dashed var(--accent);border-radius:8px;padding:.75rem;margin:1rem 0}.upsell h2{margin-top:0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
fieldset.plain{border:0;padding:0;margin:1rem 0 0}legend{padding:0}
a.button{display:block;text-align:center;padding:.7rem 1rem;border-radius:8px;background:var(--accent);color:var(--on-accent);font-weight:600;text-decoration:none}
footer{text-align:center;padding:1rem;color:#57606a;font-size:.85rem}
@media (max-width:420px){main{padding:.5rem}.card{padding:1rem;border-radius:8px}.row{flex-direction:column;gap:0}.product img{width:64px;height:64px}}
`;

export interface BuyerPage {
  html: string;
  headers: Record<string, string>;
}

/**
 * A complete page. `formTargets` are the origins forms may post to besides this one; the logo is
 * the seller's own image served by this API, so images come from this origin (and the public base
 * address, when the API is reached through another host).
 */
export function buyerPage(input: { brand: SellerBrand; title: string; body: string; baseUrl: string; locale?: Locale }): BuyerPage {
  const t = input.locale ? loadedTranslator(input.locale) : translator();
  const { brand } = input;
  const style = css(brand);
  const styleHash = createHash('sha256').update(style).digest('base64');
  let imageOrigin = '';
  try {
    imageOrigin = input.baseUrl ? ` ${new URL(input.baseUrl).origin}` : '';
  } catch {
    imageOrigin = '';
  }
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="">` : '';
  const support = brand.supportEmail
    ? `<footer>${escapeHtml(t.t('page.questions'))} <a href="mailto:${escapeHtml(brand.supportEmail)}">${escapeHtml(brand.supportEmail)}</a></footer>`
    : '';
  const html = `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(input.title)} · ${escapeHtml(brand.name)}</title>
<style>${style}</style>
</head><body>
<main>
<header class="seller">${logo}<span class="name">${escapeHtml(brand.name)}</span></header>
${input.body}
</main>
${support}
</body></html>`;
  return {
    html,
    headers: {
      'content-security-policy': `default-src 'none'; img-src 'self'${imageOrigin}; style-src 'sha256-${styleHash}'; form-action 'self'${imageOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    },
  };
}
