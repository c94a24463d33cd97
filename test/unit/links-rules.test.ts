import { describe, expect, it } from 'vitest';
import { checkTargetUrl, cookieValue, linkCodeOf, redirectLocation, visitorIdOf, visitorKeyOf } from '../../shared/links/rules';

describe('tracked link rules', () => {
  it('accepts http and https targets only', () => {
    expect(checkTargetUrl(' https://shop.example.com/a?b=1 ')).toBe('https://shop.example.com/a?b=1');
    expect(checkTargetUrl('http://shop.example.com')).toBe('http://shop.example.com/');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://x.example.com/',
      'shop.example.com',
      '//shop.example.com',
      'https://user:pw@shop.example.com/',
      `https://x.example.com/${'a'.repeat(2048)}`,
    ]) {
      expect(() => checkTargetUrl(bad), bad).toThrow();
    }
  });

  it('adds tl to the target and keeps its query', () => {
    const url = new URL(redirectLocation('https://shop.example.com/p?ref=bio&tl=old', 'CODE12345678'));
    expect(url.searchParams.get('ref')).toBe('bio');
    expect(url.searchParams.getAll('tl')).toEqual(['CODE12345678']);
  });

  it('knows a visitor by cookie, else by address and agent, and stores only a hash', () => {
    const a = visitorIdOf({ ip: '1.2.3.4', userAgent: 'UA' });
    expect(a.fromCookie).toBe(false);
    expect(visitorIdOf({ ip: '1.2.3.4', userAgent: 'UA' }).id).toBe(a.id);
    expect(visitorIdOf({ ip: '1.2.3.5', userAgent: 'UA' }).id).not.toBe(a.id);
    expect(visitorIdOf({ cookie: a.id, ip: '9.9.9.9', userAgent: 'other' })).toEqual({ id: a.id, fromCookie: true });
    // A malformed cookie is ignored.
    expect(visitorIdOf({ cookie: 'x;drop', ip: '1.2.3.4', userAgent: 'UA' }).fromCookie).toBe(false);
    expect(visitorKeyOf('link1', a.id)).not.toBe(visitorKeyOf('link2', a.id));
    expect(visitorKeyOf('link1', a.id)).not.toContain(a.id);
    expect(cookieValue('a=1; tlv=abc=def; b=2', 'tlv')).toBe('abc=def');
    expect(cookieValue(undefined, 'tlv')).toBeUndefined();
  });

  it('reads the link code from checkout metadata', () => {
    expect(linkCodeOf({ trackedLink: 'AbC123xyz789' })).toBe('AbC123xyz789');
    expect(linkCodeOf({ trackedLink: 'bad code!' })).toBeUndefined();
    expect(linkCodeOf({ trackedLink: 5 })).toBeUndefined();
    expect(linkCodeOf(null)).toBeUndefined();
  });
});
