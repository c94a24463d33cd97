import type { SandboxCheckout } from './records';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** The sandbox's hosted checkout page: a plain HTML form, no script, no external assets. */
export function checkoutPage(checkout: SandboxCheckout, options: { error?: string; values?: Record<string, string> } = {}): string {
  const v = options.values ?? {};
  const free = checkout.amountCents === 0;
  const trial = checkout.kind === 'subscription' && checkout.trialDays ? `${checkout.trialDays}-day free trial, then ` : '';
  const price = free ? 'Free' : `${trial}${money(checkout.amountCents, checkout.currency)}${checkout.kind === 'subscription' ? ` / ${checkout.interval === 'weekly' ? 'week' : checkout.interval === 'yearly' ? 'year' : 'month'}` : ''}`;
  const field = (name: string, label: string, type = 'text', required = false, extra = '') =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${escape(v[name] ?? '')}"${required ? ' required' : ''} ${extra}>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout: ${escape(checkout.description)} (sandbox)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}label{display:block;margin-top:.8rem;font-size:.9rem}input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1.2rem;width:100%;padding:.7rem;font-size:1rem}.error{color:#a00;border:1px solid #a00;padding:.5rem}.note{font-size:.8rem;color:#666}</style>
</head><body>
<p class="note">Sandbox checkout: no real money moves. Card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p>
<h1>${escape(checkout.description)}</h1>
<p id="price">${escape(price)}</p>
${options.error ? `<p class="error" role="alert" id="error">${escape(options.error)}</p>` : ''}
${checkout.status === 'paid' ? `<p id="paid">This checkout is already paid. <a href="${escape(checkout.successUrl)}">Continue</a></p>` : `<form method="post" enctype="multipart/form-data" action="/processor/sandbox/checkout/${escape(checkout.id)}">
${field('email', 'Email', 'email', true, 'autocomplete="email"')}
${field('firstName', 'First name')}
${field('lastName', 'Last name')}
${field('country', 'Country (2 letters)', 'text', false, 'maxlength="2"')}
${free ? '' : field('cardNumber', 'Card number', 'text', true, 'inputmode="numeric" autocomplete="cc-number"')}
${checkout.offerSaveCard ? '<label><input type="checkbox" name="saveCard" value="true" style="width:auto"> Save my card to top up my balance automatically</label>' : ''}
<button type="submit" id="pay">${free ? 'Get it free' : 'Pay'}</button>
</form>
<p><a href="${escape(checkout.cancelUrl)}" id="cancel">Cancel and go back</a></p>`}
</body></html>`;
}

export function notFoundPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout not found</title></head><body><h1>This checkout does not exist</h1></body></html>';
}
