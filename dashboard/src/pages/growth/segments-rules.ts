/**
 * The rule builder's model: the spec's rule types (shared/segments/rules.ts is the API's own
 * check), their default fields, and the definition sent to the API.
 */

export type Match = 'all' | 'any';
export type Rule = { type: string } & Record<string, unknown>;
export interface Group {
  match: Match;
  rules: Rule[];
}
export interface Definition {
  match: Match;
  groups: Group[];
}

export const MAX_GROUPS = 10;
export const MAX_RULES = 20;

export const RULE_TYPES: { value: string; label: string }[] = [
  { value: 'tag', label: 'Has the tag' },
  { value: 'notTag', label: 'Does not have the tag' },
  { value: 'bought', label: 'Bought a product' },
  { value: 'notBought', label: 'Never bought a product' },
  { value: 'spent', label: 'Has spent in all' },
  { value: 'boughtWithin', label: 'Bought recently' },
  { value: 'notBoughtWithin', label: 'Has not bought for a while' },
  { value: 'engagedWithin', label: 'Read your emails recently' },
  { value: 'country', label: 'Lives in' },
  { value: 'source', label: 'Joined through' },
];

/** How a contact joined, in words (the API's codes as values). */
export const SOURCES = [
  { value: 'form', label: 'A signup form' },
  { value: 'checkout', label: 'A purchase' },
  { value: 'import', label: 'An import' },
  { value: 'dashboard', label: 'Added by you' },
  { value: 'api', label: 'An app or integration' },
  { value: 'recommendation', label: 'A recommendation' },
];

/** A new rule of a type, with fields the API accepts once filled in. */
export function newRule(type: string): Rule {
  switch (type) {
    case 'bought':
    case 'notBought':
      return { type, productId: '' };
    case 'spent':
      return { type, op: 'gt', amountCents: 0 };
    case 'boughtWithin':
    case 'notBoughtWithin':
      return { type, days: 30 };
    case 'engagedWithin':
      return { type, days: 30, event: 'any' };
    case 'country':
      return { type, countries: [] };
    case 'source':
      return { type, source: 'form' };
    default:
      return { type, tag: '' };
  }
}

/** Whether a rule is filled in enough to be worth a preview (the API says why otherwise). */
export function ruleComplete(rule: Rule): boolean {
  switch (rule.type) {
    case 'bought':
    case 'notBought':
      return typeof rule.productId === 'string' && rule.productId !== '';
    case 'tag':
    case 'notTag':
      return typeof rule.tag === 'string' && rule.tag.trim() !== '';
    case 'country':
      return Array.isArray(rule.countries) && rule.countries.length > 0;
    default:
      return true;
  }
}

export const emptyDefinition = (): Definition => ({ match: 'all', groups: [{ match: 'all', rules: [] }] });

/** The definition without empty groups: what the preview and the save send. */
export const cleanDefinition = (d: Definition): Definition => ({ match: d.match, groups: d.groups.filter((g) => g.rules.length > 0) });

/** Plain-words summary of a definition for the list. */
export function describeDefinition(d: Definition): string {
  const rules = d.groups.reduce((n, g) => n + g.rules.length, 0);
  const groups = d.groups.length > 1 ? ` in ${d.groups.length} groups` : '';
  return `${rules} rule${rules === 1 ? '' : 's'}${groups}, ${d.match === 'all' ? 'all must match' : 'any one is enough'}`;
}
