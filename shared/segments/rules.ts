import { CONTACT_SOURCES, type ContactRecord, type ContactSource } from '../audience/records';

/**
 * Segment definitions and their evaluation: plain functions, no I/O. The service pages contacts
 * through the audience capability and asks `matchesDefinition` of each one.
 */

export const MAX_GROUPS = 10;
export const MAX_RULES_PER_GROUP = 20;
export const MAX_DAYS = 3650;
export const ENGAGEMENT_EVENTS = ['opened', 'clicked', 'any'] as const;
export type EngagementEvent = (typeof ENGAGEMENT_EVENTS)[number];
export type Match = 'all' | 'any';

export type Rule =
  | { type: 'bought'; productId: string }
  | { type: 'notBought'; productId: string }
  | { type: 'spent'; op: 'gt' | 'lt'; amountCents: number }
  | { type: 'boughtWithin'; days: number }
  | { type: 'notBoughtWithin'; days: number }
  | { type: 'engagedWithin'; days: number; event: EngagementEvent }
  | { type: 'tag'; tag: string }
  | { type: 'notTag'; tag: string }
  | { type: 'country'; countries: string[] }
  | { type: 'source'; source: ContactSource };

export const RULE_TYPES = ['bought', 'notBought', 'spent', 'boughtWithin', 'notBoughtWithin', 'engagedWithin', 'tag', 'notTag', 'country', 'source'] as const;

export interface Group {
  match: Match;
  rules: Rule[];
}

export interface Definition {
  match: Match;
  groups: Group[];
}

/** The facts a rule reads: a subset of the audience's contact record. */
export type ContactFacts = Pick<
  ContactRecord,
  'tags' | 'source' | 'country' | 'lastPurchaseAt' | 'totalSpentCents' | 'productIds' | 'lastOpenAt' | 'lastClickAt'
>;

/** A definition problem: `path` names the rule (`groups[1].rules[3]`), `message` says why. */
export class DefinitionError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_TEXT = 100;

function text(value: unknown, where: string, named: string, field: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new DefinitionError(where, `${named}: ${field} is required (a non-empty string)`);
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT) throw new DefinitionError(where, `${named}: ${field} is at most ${MAX_TEXT} characters`);
  return trimmed;
}

function days(value: unknown, where: string, named: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DAYS)
    throw new DefinitionError(where, `${named}: days must be a whole number from 1 to ${MAX_DAYS}`);
  return value;
}

function match(value: unknown, where: string): Match {
  if (value !== 'all' && value !== 'any') throw new DefinitionError(where, `${where}: match must be "all" or "any"`);
  return value;
}

/** Checks one rule and returns it in canonical form (trimmed, country codes upper-cased). */
export function parseRule(input: unknown, where: string): Rule {
  if (!isObject(input)) throw new DefinitionError(where, `${where}: a rule is an object with a type`);
  const type = input.type;
  const named = `${where} (${String(type)})`;
  switch (type) {
    case 'bought':
    case 'notBought':
      return { type, productId: text(input.productId, where, named, 'productId') };
    case 'spent': {
      if (input.op !== 'gt' && input.op !== 'lt') throw new DefinitionError(where, `${named}: op must be "gt" or "lt"`);
      const amount = input.amountCents;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 0)
        throw new DefinitionError(where, `${named}: amountCents must be a whole number of cents, 0 or more`);
      return { type, op: input.op, amountCents: amount };
    }
    case 'boughtWithin':
    case 'notBoughtWithin':
      return { type, days: days(input.days, where, named) };
    case 'engagedWithin': {
      if (!ENGAGEMENT_EVENTS.includes(input.event as EngagementEvent))
        throw new DefinitionError(where, `${named}: event must be one of ${ENGAGEMENT_EVENTS.join(', ')}`);
      return { type, days: days(input.days, where, named), event: input.event as EngagementEvent };
    }
    case 'tag':
    case 'notTag':
      return { type, tag: text(input.tag, where, named, 'tag') };
    case 'country': {
      const list = input.countries;
      if (!Array.isArray(list) || list.length < 1 || list.length > 250) throw new DefinitionError(where, `${named}: countries must list 1 to 250 ISO codes`);
      const countries = list.map((c) => {
        if (typeof c !== 'string' || !/^[A-Za-z]{2}$/.test(c.trim()))
          throw new DefinitionError(where, `${named}: ${JSON.stringify(c)} is not an ISO 3166 alpha-2 country code`);
        return c.trim().toUpperCase();
      });
      return { type, countries: [...new Set(countries)] };
    }
    case 'source':
      if (!CONTACT_SOURCES.includes(input.source as ContactSource))
        throw new DefinitionError(where, `${named}: source must be one of ${CONTACT_SOURCES.join(', ')}`);
      return { type, source: input.source as ContactSource };
    default:
      throw new DefinitionError(where, `${where}: unknown rule type ${JSON.stringify(type)}; use one of ${RULE_TYPES.join(', ')}`);
  }
}

/** Validates a whole definition; throws a DefinitionError naming the first bad part. */
export function parseDefinition(input: unknown): Definition {
  if (!isObject(input)) throw new DefinitionError('definition', 'definition must be an object with match and groups');
  const top = match(input.match, 'definition');
  const groups = input.groups;
  if (!Array.isArray(groups) || groups.length < 1) throw new DefinitionError('groups', 'definition.groups must hold at least one group');
  if (groups.length > MAX_GROUPS) throw new DefinitionError('groups', `definition.groups holds at most ${MAX_GROUPS} groups`);
  return {
    match: top,
    groups: groups.map((group, g) => {
      const where = `groups[${g}]`;
      if (!isObject(group)) throw new DefinitionError(where, `${where}: a group is an object with match and rules`);
      const rules = group.rules;
      if (!Array.isArray(rules) || rules.length < 1) throw new DefinitionError(where, `${where}: rules must hold at least one rule`);
      if (rules.length > MAX_RULES_PER_GROUP) throw new DefinitionError(where, `${where}: at most ${MAX_RULES_PER_GROUP} rules per group`);
      return { match: match(group.match, where), rules: rules.map((rule, r) => parseRule(rule, `${where}.rules[${r}]`)) };
    }),
  };
}

const DAY_MS = 86_400_000;

/** True when `at` lies within the last `days` days of `nowMs`; the boundary instant counts as within. */
export function withinDays(at: string | null, days: number, nowMs: number): boolean {
  if (!at) return false;
  const t = Date.parse(at);
  return t >= nowMs - days * DAY_MS;
}

export function matchesRule(rule: Rule, c: ContactFacts, nowMs: number): boolean {
  switch (rule.type) {
    case 'bought':
      return c.productIds.includes(rule.productId);
    case 'notBought':
      return !c.productIds.includes(rule.productId);
    case 'spent':
      return rule.op === 'gt' ? c.totalSpentCents > rule.amountCents : c.totalSpentCents < rule.amountCents;
    case 'boughtWithin':
      return withinDays(c.lastPurchaseAt, rule.days, nowMs);
    case 'notBoughtWithin':
      // Past buyers only: someone who never bought is not "lapsed".
      return c.lastPurchaseAt !== null && !withinDays(c.lastPurchaseAt, rule.days, nowMs);
    case 'engagedWithin':
      return (
        (rule.event !== 'clicked' && withinDays(c.lastOpenAt, rule.days, nowMs)) || (rule.event !== 'opened' && withinDays(c.lastClickAt, rule.days, nowMs))
      );
    case 'tag':
      return c.tags.includes(rule.tag);
    case 'notTag':
      return !c.tags.includes(rule.tag);
    case 'country':
      return c.country !== null && rule.countries.includes(c.country.toUpperCase());
    case 'source':
      return c.source === rule.source;
  }
}

const combine = <T>(how: Match, items: T[], test: (item: T) => boolean) => (how === 'all' ? items.every(test) : items.some(test));

export function matchesDefinition(definition: Definition, contact: ContactFacts, nowMs: number): boolean {
  return combine(definition.match, definition.groups, (group) => combine(group.match, group.rules, (rule) => matchesRule(rule, contact, nowMs)));
}

/** The tags a definition reads; a segment cannot use its own smart tag as a rule (it would feed on itself). */
export const tagsRead = (definition: Definition): string[] =>
  definition.groups.flatMap((g) => g.rules.flatMap((r) => (r.type === 'tag' || r.type === 'notTag' ? [r.tag] : [])));

/**
 * When every contact of the segment must carry one tag (top level `all`, or a single group, with
 * an `all` group holding a `tag` rule), the service can walk that tag's carriers instead of every
 * subscribed contact: same answer, far fewer reads.
 */
export function requiredTag(definition: Definition): string | undefined {
  const groups = definition.match === 'all' || definition.groups.length === 1 ? definition.groups : [];
  for (const group of groups) {
    const tagRules = group.rules.filter((r): r is Extract<Rule, { type: 'tag' }> => r.type === 'tag');
    if (tagRules.length && (group.match === 'all' || group.rules.length === 1)) return tagRules[0]!.tag;
  }
  return undefined;
}
