import { CONTACT_SOURCES } from '../audience/records';
import type { FactsTable } from '../audience/contact-facts';
import type { Definition, Rule } from './rules';

/**
 * The evaluator of rules.ts compiled against a snapshot's columns: each rule becomes a test of
 * entry `i` over typed arrays (dictionary ids and thresholds resolved once per evaluation), so a
 * count over 100,000 contacts builds no object per contact. Same answers as `matchesDefinition`
 * (the unit tests compare them rule by rule).
 */
type Test = (i: number) => boolean;

const DAY_MS = 86_400_000;
const never: Test = () => false;

function hasIn(start: Uint32Array, flat: Uint32Array, id: number): Test {
  if (id < 0) return never;
  return (i) => {
    for (let k = start[i]!, end = start[i + 1]!; k < end; k++) if (flat[k] === id) return true;
    return false;
  };
}

function compileRule(rule: Rule, t: FactsTable, nowMs: number): Test {
  switch (rule.type) {
    case 'bought':
      return hasIn(t.productStart, t.productIds, t.products.indexOf(rule.productId));
    case 'notBought': {
      const has = hasIn(t.productStart, t.productIds, t.products.indexOf(rule.productId));
      return (i) => !has(i);
    }
    case 'spent': {
      const { amountCents } = rule;
      const spent = t.spent;
      return rule.op === 'gt' ? (i) => spent[i]! > amountCents : (i) => spent[i]! < amountCents;
    }
    case 'boughtWithin': {
      const from = nowMs - rule.days * DAY_MS;
      const last = t.lastPurchase;
      return (i) => last[i]! >= from; // NaN (never bought) compares false
    }
    case 'notBoughtWithin': {
      const from = nowMs - rule.days * DAY_MS;
      const last = t.lastPurchase;
      return (i) => last[i]! < from;
    }
    case 'engagedWithin': {
      const from = nowMs - rule.days * DAY_MS;
      const open = t.lastOpen;
      const click = t.lastClick;
      if (rule.event === 'opened') return (i) => open[i]! >= from;
      if (rule.event === 'clicked') return (i) => click[i]! >= from;
      return (i) => open[i]! >= from || click[i]! >= from;
    }
    case 'tag':
      return hasIn(t.tagStart, t.tagIds, t.tags.indexOf(rule.tag));
    case 'notTag': {
      const has = hasIn(t.tagStart, t.tagIds, t.tags.indexOf(rule.tag));
      return (i) => !has(i);
    }
    case 'country': {
      const wanted = Uint8Array.from(t.countries, (c) => (rule.countries.includes(c.toUpperCase()) ? 1 : 0));
      const country = t.country;
      return (i) => country[i]! >= 0 && wanted[country[i]!] === 1;
    }
    case 'source': {
      const source = CONTACT_SOURCES.indexOf(rule.source);
      const column = t.source;
      return (i) => column[i] === source;
    }
  }
}

function combine(how: 'all' | 'any', tests: Test[]): Test {
  if (tests.length === 1) return tests[0]!;
  if (how === 'all') {
    if (tests.length === 2) {
      const [a, b] = tests as [Test, Test];
      return (i) => a(i) && b(i);
    }
    return (i) => {
      for (const test of tests) if (!test(i)) return false;
      return true;
    };
  }
  if (tests.length === 2) {
    const [a, b] = tests as [Test, Test];
    return (i) => a(i) || b(i);
  }
  return (i) => {
    for (const test of tests) if (test(i)) return true;
    return false;
  };
}

/** A test of snapshot entry `i` against the definition at `nowMs`. */
export function compileDefinition(definition: Definition, table: FactsTable, nowMs: number): Test {
  if (!table.size) return never;
  return combine(
    definition.match,
    definition.groups.map((group) =>
      combine(
        group.match,
        group.rules.map((rule) => compileRule(rule, table, nowMs)),
      ),
    ),
  );
}
