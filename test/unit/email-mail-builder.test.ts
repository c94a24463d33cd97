import { describe, expect, it } from 'vitest';
import { buildMailTemplate, textToHtml } from '../../shared/email/mail-builder';
import { recipientData, unsubscribeHeaders } from '../../shared/email/mail-recipients';
import { fillTemplate } from '../../shared/adapters/local/email';
import { peekToken, signToken, verifyToken } from '../../shared/email/tokens';
import { feedbackFromSesEvent } from '../../shared/email/service';
import { applySale, buildContact, cleanTags, mergeContact } from '../../shared/audience/rules';

const footer = { physicalAddress: '1 Main St, Town', footerText: 'Thanks for reading' };

describe('mail builder', () => {
  it('lays out the body with preview, footer, unsubscribe link and open pixel, CSS inlined', () => {
    const t = buildMailTemplate({ subject: 'Hello', html: '<style>p { color: #123456 }</style><p>Body</p>', preview: 'Peek' }, footer);
    expect(t.html).toContain('<p style="color: #123456;">Body</p>');
    expect(t.html).not.toContain('<style>');
    expect(t.html).toContain('Peek');
    expect(t.html).toContain('1 Main St, Town');
    expect(t.html).toContain('Thanks for reading');
    expect(t.html).toContain('href="{{u}}"');
    expect(t.html).toContain('src="{{o}}"');
    expect(t.text).toMatch(/Body\n\n--\nThanks for reading\n1 Main St, Town\nUnsubscribe: \{\{u\}\}$/);
  });

  it('tracks each distinct http(s) link once and keeps the original URLs in the text part', () => {
    const t = buildMailTemplate(
      {
        subject: 's',
        html: '<a href="https://a.example/x?y=1&amp;z=2">A</a> <a href="https://a.example/x?y=1&amp;z=2">again</a> <a href="mailto:m@example.com">mail</a>',
      },
      footer,
    );
    expect(t.links).toEqual(['https://a.example/x?y=1&z=2']);
    expect(t.html.match(/href="\{\{c0\}\}"/g)).toHaveLength(2);
    expect(t.html).toContain('href="mailto:m@example.com"');
    expect(t.text).toContain('https://a.example/x?y=1&z=2');
    const data = recipientData(t, { unsubscribe: 'U', open: 'O', click: (url, i) => `C${i}:${url}` });
    expect(data).toEqual({ u: 'U', o: 'O', c0: 'C0:https://a.example/x?y=1&z=2' });
    expect(fillTemplate(t.html, data)).toContain('href="C0:https://a.example/x?y=1&z=2"');
  });

  it('sanitises outside HTML: no scripts, handlers, frames or javascript: links', () => {
    const t = buildMailTemplate(
      {
        subject: 's',
        html: '<p onclick="x()">Hi</p><script>alert(1)</script><iframe src="https://x"></iframe><a href="javascript:alert(1)">j</a><form><input></form>',
      },
      footer,
      { track: false },
    );
    expect(t.html).not.toMatch(/script|onclick|iframe|javascript:|<form|<input/);
    expect(t.html).toContain('<p>Hi</p>');
  });

  it('keeps style attributes as written, escaped so they cannot leave the attribute', () => {
    const t = buildMailTemplate(
      {
        subject: 's',
        html: '<p style="color:red;;font-weight : bold">a</p><p style="color: red" onmouseover="x()">b</p><p style=\'x:"><script>y()</script>\'>c</p>',
      },
      footer,
      { track: false },
    );
    // juice merges the layout's rules into each element's style attribute; the element's own come last.
    expect(t.html).toMatch(/<p style="[^"]*color:red;;font-weight : bold">a<\/p>/);
    expect(t.html).toMatch(/<p style="[^"]*color: red">b<\/p>/);
    expect(t.html).not.toMatch(/<script|onmouseover/);
  });

  it('builds HTML from text and uses the given text as the plain alternative', () => {
    expect(textToHtml('a <b>\nc\n\nd')).toBe('<p>a &lt;b&gt;<br>c</p>\n<p>d</p>');
    const t = buildMailTemplate({ subject: 's', text: 'Line one\n\nLine two' }, footer);
    expect(t.html).toContain('<p>Line one</p>');
    expect(t.text.startsWith('Line one\n\nLine two\n\n--')).toBe(true);
  });

  it('neutralises placeholders the content itself holds, so no recipient data leaks in', () => {
    const t = buildMailTemplate({ subject: 'Hi {{u}}', html: '<p>{{u}} and {{c0}}</p>', text: 'see {{o}}' }, footer);
    const filled = fillTemplate(t.html, { u: 'SECRET', c0: 'SECRET', o: 'SECRET' });
    expect(filled.match(/SECRET/g)).toHaveLength(2); // the footer link and the pixel only
    expect(fillTemplate(t.subject, { u: 'SECRET' })).not.toContain('SECRET');
    expect(fillTemplate(t.text, { o: 'SECRET', u: 'X' })).not.toContain('SECRET');
  });

  it('gives RFC 8058 one-click headers', () => {
    expect(unsubscribeHeaders('https://x/u/1')).toEqual({ 'List-Unsubscribe': '<https://x/u/1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});

describe('link tokens', () => {
  it('verify with their own secret only, and any change breaks them', () => {
    const token = signToken('s1', { a: 'acc', m: 'test', e: 'a@example.com', k: 'c', url: 'https://x' });
    expect(verifyToken('s1', token)).toBe(true);
    expect(verifyToken('s2', token)).toBe(false);
    expect(peekToken(token)).toMatchObject({ a: 'acc', url: 'https://x' });
    const [body, sig] = token.split('.');
    const changed = Buffer.from(Buffer.from(body!, 'base64url').toString().replace('https://x', 'https://y')).toString('base64url');
    expect(verifyToken('s1', `${changed}.${sig}`)).toBe(false);
    expect(peekToken('garbage')).toBeUndefined();
  });
});

describe('SES feedback events', () => {
  it('reads permanent bounces and complaints with the scope from the message tags', () => {
    const mail = { tags: { accountId: ['a1'], mode: ['live'] } };
    expect(feedbackFromSesEvent({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'x@y.com' }] } })).toEqual({
      scope: { accountId: 'a1', mode: 'live' },
      emails: ['x@y.com'],
      type: 'bounce',
    });
    expect(
      feedbackFromSesEvent({ eventType: 'Bounce', mail, bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'x@y.com' }] } }),
    ).toBeUndefined();
    expect(feedbackFromSesEvent({ eventType: 'Complaint', mail, complaint: { complainedRecipients: [{ emailAddress: 'c@y.com' }] } })?.type).toBe('complaint');
    expect(feedbackFromSesEvent({ eventType: 'Bounce', mail: {}, bounce: {} })).toBeUndefined();
  });
});

describe('contact rules', () => {
  it('merge fills what is missing and never changes status; a sale updates the facts', () => {
    const c = buildContact({ email: ' A@B.com ', tags: ['x', ' x', 'y'], status: 'unsubscribed' }, { id: 'i', now: 't0' });
    expect(c).toMatchObject({ email: 'a@b.com', tags: ['x', 'y'], status: 'unsubscribed', unsubscribedAt: 't0' });
    const m = mergeContact({ ...c, name: 'Kept' }, { name: 'New', tags: ['z'], source: 'form' }, 't1');
    expect(m).toMatchObject({ name: 'Kept', tags: ['x', 'y', 'z'], source: 'form', status: 'unsubscribed' });
    const s = applySale(m, { productId: 'p', amountCents: 500, inAccountCurrency: true, at: '2026-01-01', country: 'fr' }, 't2');
    expect(s).toMatchObject({ totalSpentCents: 500, productIds: ['p'], firstPurchaseAt: '2026-01-01', lastPurchaseAt: '2026-01-01', country: 'FR' });
    expect(cleanTags(['', ' a ', 'a'])).toEqual(['a']);
  });
});
