import { translator, type Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';
import type { SellerBrand } from '../account/branding';
import { buyerPage } from '../account/buyer-page';

/**
 * The embed script: plain browser JavaScript served by this API (no third-party assets). It reads
 * the form through the public route, renders it in a shadow root (the host page's CSS cannot
 * break it, nor it the page's), shows an inline form where the tag is, or a slide-in or popup when
 * its trigger fires (delay, scroll percent, exit intent; at once when none is set), remembers a
 * close for `frequencyDays` in localStorage, counts a view when shown and posts the signup as
 * `text/plain` JSON (a CORS "simple" request: no preflight needed from any origin).
 */
export const EMBED_SCRIPT = String.raw`(function () {
  var me = document.currentScript;
  if (!me) return;
  var m = /^(.*)\/forms\/public\/([0-9a-f]{24})\/embed\.js/.exec(me.src);
  if (!m) return;
  var base = m[1], id = m[2];
  var forceInline = me.getAttribute('data-mode') === 'frame';
  var preview = me.getAttribute('data-preview') === '1';
  var anchor = me;
  var store = { get: function (k) { try { return localStorage.getItem(k); } catch (e) { return null; } }, set: function (k, v) { try { localStorage.setItem(k, v); } catch (e) {} } };
  var closedKey = 'signup-form-closed:' + id, doneKey = 'signup-form-done:' + id;
  function post(path, body) {
    return fetch(base + '/forms/public/' + id + path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  fetch(base + '/forms/public/' + id + (preview ? '?preview=1' : '')).then(function (r) { return r.json(); }).then(function (f) {
    if (!f || f.render !== true) return;
    var type = forceInline ? 'inline' : f.type;
    if (type !== 'inline' && !preview) {
      if (store.get(doneKey)) return;
      var closed = Number(store.get(closedKey) || 0);
      if (closed && Date.now() - closed < f.frequencyDays * 86400000) return;
    }
    var host = el('div', { 'data-signup-form': id, 'data-form-type': type });
    var root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
    var accent = f.accentColor;
    var css = ':host{all:initial}*{box-sizing:border-box;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif}' +
      '.card{background:#fff;color:#111;border:1px solid #e5e7eb;border-radius:12px;padding:20px;max-width:440px;box-shadow:0 8px 30px rgba(0,0,0,.12);position:relative}' +
      'h2{margin:0 0 8px;font-size:20px}p{margin:0 0 12px;font-size:14px;line-height:1.45;color:#374151}' +
      'input{display:block;width:100%;padding:10px 12px;margin:0 0 8px;border:1px solid #d1d5db;border-radius:8px;font-size:15px}' +
      'button.go{width:100%;padding:10px 12px;border:0;border-radius:8px;color:#fff;font-size:15px;cursor:pointer;background:' + accent + '}' +
      '.close{position:absolute;top:6px;right:10px;background:none;border:0;font-size:22px;cursor:pointer;color:#6b7280}' +
      '.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}.err{color:#b91c1c;font-size:13px;min-height:1em}' +
      '.slide{position:fixed;bottom:20px;z-index:2147483646;width:min(360px,calc(100vw - 40px))}.slide.bottom_right{right:20px}.slide.bottom_left{left:20px}' +
      '.overlay{position:fixed;inset:0;background:rgba(17,24,39,.55);z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:20px}';
    root.appendChild(el('style', {}, css));
    var card = el('div', { 'class': 'card', role: type === 'popup' ? 'dialog' : 'form', 'aria-label': f.headline });
    var frame = card;
    if (type === 'slide_in') { frame = el('div', { 'class': 'slide ' + f.position }); frame.appendChild(card); }
    if (type === 'popup') { frame = el('div', { 'class': 'overlay' }); frame.appendChild(card); }
    root.appendChild(frame);
    if (type !== 'inline') {
      var x = el('button', { 'class': 'close', type: 'button', 'aria-label': 'Close' }, '\u00d7');
      x.onclick = function () { store.set(closedKey, String(Date.now())); host.remove(); };
      card.appendChild(x);
    }
    card.appendChild(el('h2', {}, f.headline));
    if (f.body) card.appendChild(el('p', {}, f.body));
    var form = el('form', { novalidate: '' });
    var name = f.collectName ? el('input', { type: 'text', name: 'name', placeholder: 'First name', autocomplete: 'given-name' }) : null;
    if (name) form.appendChild(name);
    var email = el('input', { type: 'email', name: 'email', required: '', placeholder: f.placeholder, autocomplete: 'email' });
    form.appendChild(email);
    var hp = el('div', { 'class': 'hp', 'aria-hidden': 'true' });
    var company = el('input', { type: 'text', name: 'company', tabindex: '-1', autocomplete: 'off' });
    hp.appendChild(company);
    form.appendChild(hp);
    var err = el('div', { 'class': 'err', role: 'alert' });
    form.appendChild(err);
    var button = el('button', { 'class': 'go', type: 'submit' }, f.buttonLabel);
    form.appendChild(button);
    card.appendChild(form);
    var shownAt = 0;
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      err.textContent = '';
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim())) { err.textContent = 'Please enter a valid email address.'; return; }
      button.disabled = true;
      post('/subscribe', { email: email.value, name: name ? name.value : null, company: company.value, elapsedMs: Math.round(performance.now() - shownAt) })
        .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
        .then(function (res) {
          if (!res.ok) { button.disabled = false; err.textContent = (res.body && res.body.message) || 'Something went wrong. Please try again.'; return; }
          store.set(doneKey, '1');
          while (card.lastChild && card.lastChild !== card.firstChild) card.removeChild(card.lastChild);
          if (type === 'inline') card.textContent = '';
          var done = el('div', { 'data-state': res.body.status });
          done.appendChild(el('h2', {}, res.body.status === 'confirm_email' ? 'Check your inbox' : f.successHeadline));
          done.appendChild(el('p', {}, res.body.status === 'confirm_email' ? 'We sent you a link to confirm your subscription.' : f.successMessage));
          var lm = res.body.leadMagnet;
          if (lm && lm.url) done.appendChild(el('a', { href: lm.url, target: '_blank', rel: 'noopener' }, 'Get ' + lm.name));
          card.appendChild(done);
        })
        .catch(function () { button.disabled = false; err.textContent = 'Something went wrong. Please try again.'; });
    });
    var shown = false;
    function show() {
      if (shown) return;
      shown = true;
      if (type === 'inline') anchor.parentNode.insertBefore(host, anchor.nextSibling); else document.body.appendChild(host);
      shownAt = performance.now();
      if (!preview) post('/view', {}).catch(function () {});
    }
    var t = f.trigger || {};
    if (type === 'inline' || preview || (!t.delaySeconds && !t.scrollPercent && !t.exitIntent)) return show();
    if (t.delaySeconds) setTimeout(show, t.delaySeconds * 1000);
    if (t.scrollPercent) {
      var onScroll = function () {
        var h = document.documentElement.scrollHeight - window.innerHeight;
        if (h <= 0 || (window.scrollY / h) * 100 >= t.scrollPercent) { window.removeEventListener('scroll', onScroll); show(); }
      };
      window.addEventListener('scroll', onScroll, { passive: true });
    }
    if (t.exitIntent) document.addEventListener('mouseout', function (e) { if (!e.relatedTarget && e.clientY <= 0) show(); });
  }).catch(function () {});
})();
`;

/** The page the iframe snippet loads: the same script, always inline. */
export const framePage = (base: string, id: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Signup form</title><style>body{margin:0;padding:8px;background:transparent}</style></head><body><script src="${base}/forms/public/${id}/embed.js" data-mode="frame"></script></body></html>`;

/** The creator's live preview: the saved form shown at once (no trigger, no view counted). */
export const previewPage = (base: string, id: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Signup form preview</title><style>body{font-family:system-ui,sans-serif;margin:0;padding:24px;background:#f3f4f6;min-height:100vh}</style></head><body><p>Preview of signup form ${id}. Reload to see saved changes; views are not counted here.</p><script src="${base}/forms/public/${id}/embed.js" data-preview="1"></script></body></html>`;

/**
 * The page the confirmation link opens, framed like the creator's checkout (name, logo, colours):
 * the creator's headline and message as written, the rest in the subscriber's language.
 */
export const confirmedPage = (
  brand: SellerBrand,
  baseUrl: string,
  headline: string,
  message: string,
  leadMagnet: { name: string; url: string | null } | null,
  t: Translator = translator(),
) =>
  buyerPage({
    brand,
    baseUrl,
    locale: t.locale,
    title: headline,
    body: `<section class="card"><h1>${escapeHtml(headline)}</h1><p>${escapeHtml(message)}</p>${
      leadMagnet?.url ? `<p><a class="button" href="${escapeHtml(leadMagnet.url)}">${t.html('form.get', { name: leadMagnet.name })}</a></p>` : ''
    }</section>`,
  });

/** A link that names no store we can read any more: the page carries no seller's frame. */
const NO_STORE: SellerBrand = { name: '', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null };

/** A confirmation link already used, expired or unknown: a page saying so, in the subscriber's language. */
export const confirmGonePage = (t: Translator = translator()) =>
  buyerPage({
    brand: NO_STORE,
    baseUrl: '',
    locale: t.locale,
    title: t.t('form.goneTitle'),
    body: `<section class="card"><h1>${t.html('form.goneTitle')}</h1><p>${t.html('form.gone')}</p></section>`,
  });
