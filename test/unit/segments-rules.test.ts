import { describe, expect, it } from 'vitest';
import {
  DefinitionError,
  matchesDefinition,
  matchesRule,
  parseDefinition,
  requiredTag,
  withinDays,
  type ContactFacts,
  type Rule,
} from '../../shared/segments/rules';

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const nobody: ContactFacts = {
  tags: [],
  source: null,
  country: null,
  lastPurchaseAt: null,
  totalSpentCents: 0,
  productIds: [],
  lastOpenAt: null,
  lastClickAt: null,
};
const buyer: ContactFacts = {
  tags: ['vip', 'Fan'],
  source: 'checkout',
  country: 'de',
  lastPurchaseAt: iso(NOW - 3 * DAY),
  totalSpentCents: 5000,
  productIds: ['p1', 'o1'],
  lastOpenAt: iso(NOW - DAY),
  lastClickAt: null,
};
const one = (rule: Rule, c: ContactFacts) => matchesRule(rule, c, NOW);

describe('segment rules', () => {
  it('bought / notBought: notBought includes people who never bought anything', () => {
    expect(one({ type: 'bought', productId: 'p1' }, buyer)).toBe(true);
    expect(one({ type: 'bought', productId: 'p2' }, buyer)).toBe(false);
    expect(one({ type: 'bought', productId: 'p1' }, nobody)).toBe(false);
    expect(one({ type: 'notBought', productId: 'p1' }, buyer)).toBe(false);
    expect(one({ type: 'notBought', productId: 'p2' }, buyer)).toBe(true);
    expect(one({ type: 'notBought', productId: 'p1' }, nobody)).toBe(true);
  });

  it('spent gt/lt is strict; a non-buyer spent 0', () => {
    expect(one({ type: 'spent', op: 'gt', amountCents: 4999 }, buyer)).toBe(true);
    expect(one({ type: 'spent', op: 'gt', amountCents: 5000 }, buyer)).toBe(false);
    expect(one({ type: 'spent', op: 'lt', amountCents: 5000 }, buyer)).toBe(false);
    expect(one({ type: 'spent', op: 'lt', amountCents: 5001 }, buyer)).toBe(true);
    expect(one({ type: 'spent', op: 'lt', amountCents: 1 }, nobody)).toBe(true);
    expect(one({ type: 'spent', op: 'gt', amountCents: 0 }, nobody)).toBe(false);
  });

  it('boughtWithin and notBoughtWithin split buyers exactly at the day boundary; never-buyers are in neither', () => {
    const at = (ms: number): ContactFacts => ({ ...buyer, lastPurchaseAt: iso(ms) });
    const boundary = NOW - 7 * DAY;
    expect(withinDays(iso(boundary), 7, NOW)).toBe(true);
    expect(one({ type: 'boughtWithin', days: 7 }, at(boundary))).toBe(true);
    expect(one({ type: 'notBoughtWithin', days: 7 }, at(boundary))).toBe(false);
    expect(one({ type: 'boughtWithin', days: 7 }, at(boundary - 1))).toBe(false);
    expect(one({ type: 'notBoughtWithin', days: 7 }, at(boundary - 1))).toBe(true);
    expect(one({ type: 'boughtWithin', days: 7 }, nobody)).toBe(false);
    expect(one({ type: 'notBoughtWithin', days: 7 }, nobody)).toBe(false);
  });

  it('engagedWithin by event: opened, clicked, any', () => {
    const clicker: ContactFacts = { ...nobody, lastClickAt: iso(NOW - 2 * DAY) };
    expect(one({ type: 'engagedWithin', days: 2, event: 'opened' }, buyer)).toBe(true);
    expect(one({ type: 'engagedWithin', days: 2, event: 'clicked' }, buyer)).toBe(false);
    expect(one({ type: 'engagedWithin', days: 2, event: 'any' }, buyer)).toBe(true);
    expect(one({ type: 'engagedWithin', days: 2, event: 'clicked' }, clicker)).toBe(true);
    expect(one({ type: 'engagedWithin', days: 1, event: 'any' }, clicker)).toBe(false);
    expect(one({ type: 'engagedWithin', days: 2, event: 'opened' }, clicker)).toBe(false);
    expect(one({ type: 'engagedWithin', days: 30, event: 'any' }, nobody)).toBe(false);
  });

  it('tag / notTag are exact, case-sensitive matches', () => {
    expect(one({ type: 'tag', tag: 'vip' }, buyer)).toBe(true);
    expect(one({ type: 'tag', tag: 'VIP' }, buyer)).toBe(false);
    expect(one({ type: 'tag', tag: 'fan' }, buyer)).toBe(false);
    expect(one({ type: 'notTag', tag: 'vip' }, buyer)).toBe(false);
    expect(one({ type: 'notTag', tag: 'vip' }, nobody)).toBe(true);
  });

  it('country compares ISO codes case-insensitively; no country matches nothing', () => {
    expect(one({ type: 'country', countries: ['DE', 'AT'] }, buyer)).toBe(true);
    expect(one({ type: 'country', countries: ['FR'] }, buyer)).toBe(false);
    expect(one({ type: 'country', countries: ['DE'] }, nobody)).toBe(false);
  });

  it('source: contacts without a source match no source rule', () => {
    expect(one({ type: 'source', source: 'checkout' }, buyer)).toBe(true);
    expect(one({ type: 'source', source: 'form' }, buyer)).toBe(false);
    for (const source of ['form', 'checkout', 'import', 'dashboard', 'api', 'recommendation'] as const)
      expect(one({ type: 'source', source }, nobody)).toBe(false);
  });

  it('combines groups with all/any at both levels', () => {
    const vipOrBig = {
      match: 'any' as const,
      rules: [
        { type: 'tag' as const, tag: 'vip' },
        { type: 'spent' as const, op: 'gt' as const, amountCents: 100_000 },
      ],
    };
    const german = { match: 'all' as const, rules: [{ type: 'country' as const, countries: ['DE'] }] };
    expect(matchesDefinition({ match: 'all', groups: [vipOrBig, german] }, buyer, NOW)).toBe(true);
    expect(matchesDefinition({ match: 'all', groups: [vipOrBig, german] }, { ...buyer, country: 'FR' }, NOW)).toBe(false);
    expect(matchesDefinition({ match: 'any', groups: [vipOrBig, german] }, { ...buyer, country: 'FR' }, NOW)).toBe(true);
    expect(matchesDefinition({ match: 'any', groups: [vipOrBig, german] }, nobody, NOW)).toBe(false);
    expect(matchesDefinition({ match: 'all', groups: [{ match: 'all', rules: vipOrBig.rules }] }, buyer, NOW)).toBe(false);
  });

  it('finds a tag every member must carry, and only then', () => {
    const tagRule = { type: 'tag', tag: 'vip' } as const;
    const other = { type: 'source', source: 'form' } as const;
    expect(requiredTag({ match: 'all', groups: [{ match: 'all', rules: [other, tagRule] }] })).toBe('vip');
    expect(requiredTag({ match: 'any', groups: [{ match: 'any', rules: [tagRule] }] })).toBe('vip');
    expect(requiredTag({ match: 'all', groups: [{ match: 'any', rules: [other, tagRule] }] })).toBeUndefined();
    expect(
      requiredTag({
        match: 'any',
        groups: [
          { match: 'all', rules: [tagRule] },
          { match: 'all', rules: [other] },
        ],
      }),
    ).toBeUndefined();
    expect(requiredTag({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'notTag', tag: 'vip' }] }] })).toBeUndefined();
  });
});

describe('definition validation', () => {
  const ok = {
    match: 'all',
    groups: [
      {
        match: 'any',
        rules: [
          { type: 'tag', tag: ' vip ' },
          { type: 'country', countries: ['de', 'DE', 'at'] },
        ],
      },
    ],
  };
  const fails = (input: unknown, path: string, message: RegExp) => {
    try {
      parseDefinition(input);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).path).toBe(path);
      expect((error as Error).message).toMatch(message);
      return;
    }
    throw new Error('accepted');
  };
  const withRule = (rule: unknown, g = 0) => ({
    match: 'all',
    groups: [...Array.from({ length: g }, () => ok.groups[0]), { match: 'all', rules: [{ type: 'tag', tag: 'x' }, rule] }],
  });

  it('accepts a good definition in canonical form', () => {
    expect(parseDefinition(ok)).toEqual({
      match: 'all',
      groups: [
        {
          match: 'any',
          rules: [
            { type: 'tag', tag: 'vip' },
            { type: 'country', countries: ['DE', 'AT'] },
          ],
        },
      ],
    });
  });

  it('names the rule and the reason', () => {
    fails(null, 'definition', /must be an object/);
    fails({ match: 'both', groups: [] }, 'definition', /match must be "all" or "any"/);
    fails({ match: 'all', groups: [] }, 'groups', /at least one group/);
    fails({ match: 'all', groups: Array.from({ length: 11 }, () => ok.groups[0]) }, 'groups', /at most 10 groups/);
    fails({ match: 'all', groups: [{ match: 'all', rules: [] }] }, 'groups[0]', /at least one rule/);
    fails({ match: 'all', groups: [{ match: 'all', rules: Array.from({ length: 21 }, () => ({ type: 'tag', tag: 'a' })) }] }, 'groups[0]', /at most 20 rules/);
    fails({ match: 'all', groups: [{ match: 'x', rules: [{ type: 'tag', tag: 'a' }] }] }, 'groups[0]', /match must be/);
    fails(withRule({ type: 'bogus' }, 2), 'groups[2].rules[1]', /unknown rule type "bogus"/);
    fails(withRule({ type: 'bought' }), 'groups[0].rules[1]', /groups\[0\]\.rules\[1\] \(bought\): productId is required/);
    fails(withRule({ type: 'notBought', productId: '  ' }), 'groups[0].rules[1]', /productId is required/);
    fails(withRule({ type: 'spent', op: 'eq', amountCents: 1 }), 'groups[0].rules[1]', /\(spent\): op must be "gt" or "lt"/);
    fails(withRule({ type: 'spent', op: 'gt', amountCents: 1.5 }), 'groups[0].rules[1]', /amountCents must be a whole number/);
    fails(withRule({ type: 'spent', op: 'gt', amountCents: -1 }), 'groups[0].rules[1]', /amountCents/);
    fails(withRule({ type: 'boughtWithin', days: 0 }), 'groups[0].rules[1]', /\(boughtWithin\): days must be a whole number from 1 to 3650/);
    fails(withRule({ type: 'notBoughtWithin', days: '7' }), 'groups[0].rules[1]', /days must be/);
    fails(withRule({ type: 'engagedWithin', days: 7, event: 'read' }), 'groups[0].rules[1]', /event must be one of opened, clicked, any/);
    fails(withRule({ type: 'engagedWithin', days: 4000, event: 'any' }), 'groups[0].rules[1]', /days must be/);
    fails(withRule({ type: 'tag', tag: '' }), 'groups[0].rules[1]', /tag is required/);
    fails(withRule({ type: 'notTag' }), 'groups[0].rules[1]', /tag is required/);
    fails(withRule({ type: 'country', countries: [] }), 'groups[0].rules[1]', /countries must list/);
    fails(withRule({ type: 'country', countries: ['DEU'] }), 'groups[0].rules[1]', /"DEU" is not an ISO/);
    fails(withRule({ type: 'source', source: 'web' }), 'groups[0].rules[1]', /source must be one of form, checkout/);
    fails(withRule('tag'), 'groups[0].rules[1]', /a rule is an object/);
  });
});
