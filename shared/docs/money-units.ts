/**
 * The API names money consistently: a field ending in `Cents` is integer cents, and `price`,
 * `amount`, `revenue` and their compounds (`upsellPrice`, `amountOff`, `refundedAmount`) are decimal
 * major units. This states the unit in every such field's description, so a reader of the contract
 * never has to guess; counts that merely look like money (`creditAmount`, `total`) are left alone.
 */
const CENTS = /Cents$/;
const MAJOR = /^(price|amount|revenue)$|Price$|^amount[A-Z]|Amount$|Revenue$/;
const NOT_MONEY = new Set(['creditAmount']);

export const moneyUnitOf = (field: string): 'cents' | 'major' | undefined => {
  if (NOT_MONEY.has(field)) return undefined;
  if (CENTS.test(field)) return 'cents';
  if (MAJOR.test(field)) return 'major';
  return undefined;
};

const UNIT_TEXT = { cents: 'Integer cents (1999 = 19.99 in the currency).', major: 'Decimal major units (19.99), at most 2 decimals.' };
const STATED = { cents: /cents/i, major: /major units/i };

const isNumeric = (schema: Record<string, unknown>): boolean =>
  schema.type === 'number' ||
  schema.type === 'integer' ||
  (Array.isArray(schema.type) && schema.type.some((t) => t === 'number' || t === 'integer')) ||
  ['anyOf', 'oneOf'].some((k) => Array.isArray(schema[k]) && (schema[k] as Record<string, unknown>[]).some(isNumeric));

/** Adds the unit to the description of every money field in a JSON schema tree (in place). */
export function annotateMoneyUnits(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) annotateMoneyUnits(child);
    return;
  }
  const object = node as Record<string, unknown>;
  const properties = object.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties && typeof properties === 'object') {
    for (const [field, schema] of Object.entries(properties)) {
      const unit = moneyUnitOf(field);
      if (!unit || !schema || typeof schema !== 'object' || !isNumeric(schema)) continue;
      const text = typeof schema.description === 'string' ? schema.description : '';
      if (!STATED[unit].test(text)) schema.description = text ? `${text}. ${UNIT_TEXT[unit]}` : UNIT_TEXT[unit];
    }
  }
  for (const value of Object.values(object)) annotateMoneyUnits(value);
}
